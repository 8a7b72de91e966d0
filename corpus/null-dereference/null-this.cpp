/* ub-case
 * category: null-dereference
 * standard: C++17 [class.mfct.non-static]/2
 * summary: a member function called through a null pointer checks 'this == nullptr'
 * ub: yes
 * ub-line: 27, 18
 * twin: null-this.fixed.cpp
 */
#include <cstdio>

struct Node {
    int value;
    int value_or_zero() const;
};

__attribute__((noinline)) int Node::value_or_zero() const
{
    if (this == nullptr)
        return 0;
    return value;
}

int main(int argc, char **)
{
    Node n{42};
    Node *p = argc > 1 ? &n : nullptr;
    std::printf("%d\n", p->value_or_zero());
    return 0;
}
