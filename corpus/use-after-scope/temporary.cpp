/* ub-case
 * category: use-after-scope
 * standard: C++17 [class.temporary]/6
 * summary: std::max returns a reference to a temporary that dies at the end of the full expression
 * ub: yes
 * ub-line: 15, 14
 * twin: temporary.fixed.cpp
 */
#include <algorithm>
#include <cstdio>

int main(int argc, char **)
{
    const int &biggest = std::max(argc * 10, argc * 20);
    std::printf("%d\n", biggest);
    return 0;
}
