"""The players' side: network session, discovery, bot client, Textual app."""
