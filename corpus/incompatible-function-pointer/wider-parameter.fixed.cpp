/* ub-case
 * category: incompatible-function-pointer
 * standard: C++17 [expr.reinterpret.cast]/6
 * summary: the fixed twin of wider-parameter.cpp: the pointer has the function's own type
 * ub: no
 * fixes: wider-parameter.cpp
 * fixed-line: 19, 18
 */
#include <cstdio>

static void show(int v)
{
    std::printf("%d\n", v);
}

int main(int argc, char **)
{
    void (*fp)(int) = show;
    fp(6 + argc);
    return 0;
}
