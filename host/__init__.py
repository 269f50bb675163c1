"""The authority: lobby, tables, seats, timers, journal, mDNS, tournaments."""
