/* does not parse */
int ok(int x);
int broken(int x, ;
