/* A small C file for the bitcode fixtures (written by the hexlens project): a struct, a loop, a switch, a
   string, a function pointer and a global array. */
struct point { int x, y; };
static const char *names[] = {"origin", "axis", "plane"};
int table[8] = {1, 2, 3, 5, 8, 13, 21, 34};

static int classify(struct point p) {
    switch ((p.x != 0) + (p.y != 0)) {
    case 0: return 0;
    case 1: return 1;
    default: return 2;
    }
}

const char *describe(struct point p) { return names[classify(p)]; }

int sum(int (*f)(int), int n) {
    int s = 0;
    for (int i = 0; i < n && i < 8; i++)
        s += f(table[i]);
    return s;
}
