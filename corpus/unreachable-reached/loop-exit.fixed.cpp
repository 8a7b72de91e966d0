/* ub-case
 * category: unreachable-reached
 * standard: C++23 [utility.unreachable]/2
 * summary: the fixed twin of loop-exit.cpp: a key not found returns -1
 * ub: no
 * fixes: loop-exit.cpp
 * fixed-line: 22
 */
#include <cstdio>

static const int keys[4] = {3, 5, 7, 9};

__attribute__((noinline)) static int find(int key)
{
    int found = -1;
    for (int i = 0; i < 4; i++)
        if (keys[i] == key) {
            found = i;
            break;
        }
    if (found < 0)
        return -1;
    return found;
}

int main(int argc, char **)
{
    std::printf("%d\n", find(argc * 4));
    return 0;
}
