// session tests
