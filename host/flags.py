"""The host's limits as ``hexnet host`` flags: declared here for the command line (which
must stay fast to load: nothing is imported) and read back by :func:`host.cli.make_host`."""

# A cap no trusted tool reaches: the bench and the soak bring thousands of keys and tables from
# 127.0.0.1, which a host must otherwise count as one address.
UNCAPPED = 1_000_000

# (flag, Host keyword, type, default as the help shows it, help). The defaults themselves live
# with the parts that keep them (host.limits, host.lobby, protocol.auth); a test checks that the
# numbers shown here are theirs.
HOST_LIMITS = [
    ("--handshake-timeout", "handshake_timeout", float, 10.0,
     "seconds for the TLS handshake and hello"),
    ("--auth-timeout", "auth_timeout", float, 10.0, "seconds for the auth message after welcome"),
    ("--idle-timeout", "idle_timeout", float, 15.0,
     "seconds of silence before a connection is dropped"),
    ("--max-unauthenticated", "max_unauthenticated", int, 64,
     "connections still logging in, in all"),
    ("--max-unauthenticated-per-address", "max_unauthenticated_per_address", int, 16,
     "connections still logging in from one address (past it its idlest is dropped)"),
    ("--message-rate", "message_rate", float, 100.0, "messages a second one client may send"),
    ("--message-burst", "message_burst", int, 400, "messages one client may send at once"),
    ("--message-excess-close", "message_excess_close", int, 200,
     "messages over the rate in a row before the client is dropped"),
    ("--write-high-water", "write_high_water", int, 2 * 1024 * 1024,
     "bytes waiting for one client before it is dropped"),
    ("--code-backoff", "code_backoff", float, 0.2,
     "longest wait in seconds between two room-code checks from one address"),
    ("--table-expiry", "table_expiry", float, 600.0,
     "seconds an open table nobody but its creator sits at is kept"),
    ("--max-open-tables", "max_open_tables_per_player", int, 3,
     "open tables one player may have created at a time"),
    ("--max-tables-per-hour", "max_tables_created_per_player", int, 20,
     "tables one player may create in an hour"),
    ("--max-open-tables-per-address", "max_open_tables_per_address", int, 6,
     "open tables the players of one address may have created at a time"),
    ("--max-tables-per-hour-per-address", "max_tables_created_per_address", int, 40,
     "tables the players of one address may create in an hour"),
    ("--identities-per-address", "identities_per_address", int, 16,
     "new players (identity keys) one address may bring in an hour"),
]
