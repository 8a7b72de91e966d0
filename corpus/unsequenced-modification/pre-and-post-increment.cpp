/* ub-case
 * category: unsequenced-modification
 * standard: C++17 [intro.execution]/10
 * summary: ++i + i++ modifies i twice with unsequenced side effects (still undefined in C++17)
 * ub: yes
 * note: reading ++i before i++ runs gives 2 + 2 = 4, reading it (an lvalue) after gives 3 + 2 = 5; right-to-left gives 3 + 1 = 4
 * ub-line: 15
 * twin: pre-and-post-increment.fixed.cpp
 */
#include <cstdio>

int main(int argc, char **)
{
    int i = argc;
    int sum = ++i + i++;
    std::printf("%d %d\n", sum, i);
    return 0;
}
