/* ub-case
 * category: unsequenced-modification
 * standard: C++17 [intro.execution]/10
 * summary: the fixed twin of pre-and-post-increment.cpp: the increments are separate statements
 * ub: no
 * fixes: pre-and-post-increment.cpp
 * fixed-line: 15, 14, 16
 */
#include <cstdio>

int main(int argc, char **)
{
    int i = argc;
    ++i;
    int sum = i;
    sum += i++;
    std::printf("%d %d\n", sum, i);
    return 0;
}
