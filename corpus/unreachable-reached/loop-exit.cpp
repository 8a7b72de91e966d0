/* ub-case
 * category: unreachable-reached
 * standard: C++23 [utility.unreachable]/2
 * summary: after a search loop, __builtin_unreachable() asserts the key was found, but it was not
 * ub: yes
 * note: an unexploited run passes the unreachable point and returns -1
 * ub-line: 23
 * twin: loop-exit.fixed.cpp
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
        __builtin_unreachable();
    return found;
}

int main(int argc, char **)
{
    std::printf("%d\n", find(argc * 4));
    return 0;
}
