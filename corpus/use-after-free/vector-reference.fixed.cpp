/* ub-case
 * category: use-after-free
 * standard: C++17 [basic.stc]/4
 * summary: the fixed twin of vector-reference.cpp: the reference is taken after push_back
 * ub: no
 * fixes: vector-reference.cpp
 * fixed-line: 20, 21
 */
#include <cstdio>
#include <vector>

int main(int argc, char **)
{
    std::vector<int> v;
    v.reserve(8);
    for (int i = 0; i < 8; i++)
        v.push_back(i * 10 * argc);
    v.push_back(80);
    int &sixth = v[6];
    sixth += 1;
    std::printf("%d %d\n", sixth, v[6]);
    return 0;
}
