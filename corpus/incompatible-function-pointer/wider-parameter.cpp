/* ub-case
 * category: incompatible-function-pointer
 * standard: C++17 [expr.reinterpret.cast]/6
 * summary: a function taking int is called through a pointer to a function taking long
 * ub: yes
 * note: the callee reads the low 32 bits of the register, so an unexploited call sees 7
 * ub-line: 20, 19
 * twin: wider-parameter.fixed.cpp
 */
#include <cstdio>

static void show(int v)
{
    std::printf("%d\n", v);
}

int main(int argc, char **)
{
    auto fp = reinterpret_cast<void (*)(long)>(show);
    fp(6L + argc);
    return 0;
}
