/* ub-case
 * category: null-dereference
 * standard: C++17 [class.mfct.non-static]/2
 * summary: the fixed twin of null-this.cpp: the caller checks the pointer; the member function no longer tests this
 * ub: no
 * fixes: null-this.cpp
 * fixed-line: 25, 18
 */
#include <cstdio>

struct Node {
    int value;
    int value_or_zero() const;
};

__attribute__((noinline)) int Node::value_or_zero() const
{
    return value;
}

int main(int argc, char **)
{
    Node n{42};
    Node *p = argc > 1 ? &n : nullptr;
    std::printf("%d\n", p != nullptr ? p->value_or_zero() : 0);
    return 0;
}
