/* Declarations that are each odd in one way; the import takes what it can express and reports the rest. */
#include <stdint.h>

#define ODD_MIN INT64_MIN
#define ODD_MAX INT64_MAX
#define ODD_UMAX UINT64_MAX
#define ODD_OVERFLOW (INT64_MAX + 1)
#define ODD_SHIFT (1 << 70)
#define ODD_HALF 0.5
enum odd_names { ODD_ÉTÉ = 3, ODD_PLAIN = 4 };

typedef struct odd_node odd_node;
struct odd_node { int (*visit)(odd_node *self, void *user_data); odd_node *next; int value; };
struct odd_by_value { int (*compare)(struct odd_by_value a, struct odd_by_value b); int key; };
typedef struct { int null; float on; double Yes; } odd_fields;
typedef int yes;
typedef struct { int v; } on;

int odd_keywords(int null, int on, int class, int Off, int NULL_);
int * restrict odd_restrict(const char * restrict name);
int odd_café(int a);
int odd_walk(odd_node *first);
int odd_sort(struct odd_by_value *items, int n);
yes odd_yes(on o, odd_fields f);
int odd_plain(int a);
/* last: a macro named null would rename what follows */
#define null 0
#define native 1
/* types whose Java classes are taken: by the generated code (Object), by another type (odd_pair, OddPair) */
typedef struct { int v; } Object;
typedef struct { int a; } odd_pair;
typedef struct { int b; } OddPair;
int odd_object(Object o);
int odd_pairs(odd_pair p, OddPair q);
/* returns a function pointer of no typedef: the callback cannot take the function's own name */
void (*odd_handler(int which))(int signal);
/* an enum clang widens to unsigned long */
enum odd_wide { ODD_WIDE_ALL = 0xFFFFFFFFFFFFFFFFull, ODD_WIDE_ONE = 1 };
/* an enum clang makes unsigned int: its top bit is 2^31, not sign-extended */
enum odd_top { ODD_TOP32 = 0x80000000u, ODD_TOP_ONE = 1 };
