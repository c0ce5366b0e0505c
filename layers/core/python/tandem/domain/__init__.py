"""Pure domain rules: no I/O, so they are unit-tested directly."""
