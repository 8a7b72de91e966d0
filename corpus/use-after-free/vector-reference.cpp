/* ub-case
 * category: use-after-free
 * standard: C++17 [basic.stc]/4
 * summary: a reference into a std::vector is read after push_back reallocated the storage
 * ub: yes
 * note: glibc leaves bytes past the first 16 of the freed block alone, so the old value is still there
 * ub-line: 21, 22
 * twin: vector-reference.fixed.cpp
 */
#include <cstdio>
#include <vector>

int main(int argc, char **)
{
    std::vector<int> v;
    v.reserve(8);
    for (int i = 0; i < 8; i++)
        v.push_back(i * 10 * argc);
    int &sixth = v[6];
    v.push_back(80);
    sixth += 1;
    std::printf("%d %d\n", sixth, v[6]);
    return 0;
}
