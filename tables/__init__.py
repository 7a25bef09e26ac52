"""Tables, their typed columns and records (region database). A note may be tied to a table,
and the server checks notes against the table's actual records."""
