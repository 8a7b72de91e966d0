/* ub-case
 * category: delete-non-virtual-destructor
 * standard: C++17 [expr.delete]/3
 * summary: a derived object is deleted through a pointer to a base without a virtual destructor
 * ub: yes
 * note: unexploited, only the base destructor runs
 * ub-line: 24
 * twin: base-pointer.fixed.cpp
 */
#include <cstdio>

struct Shape {
    ~Shape() { std::puts("~Shape"); }
};

struct Circle : Shape {
    double radius = 1.0;
    ~Circle() { std::puts("~Circle"); }
};

int main(int argc, char **)
{
    Shape *s = argc > 0 ? new Circle : new Shape;
    delete s;
    return 0;
}
