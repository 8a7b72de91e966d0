/* ub-case
 * category: delete-non-virtual-destructor
 * standard: C++17 [expr.delete]/3
 * summary: the fixed twin of base-pointer.cpp: the base has a virtual destructor
 * ub: no
 * fixes: base-pointer.cpp
 * fixed-line: 23
 */
#include <cstdio>

struct Shape {
    virtual ~Shape() { std::puts("~Shape"); }
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
