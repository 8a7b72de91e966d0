/* ub-case
 * category: misaligned-access
 * standard: C++17 [expr.static.cast]/13
 * summary: a double is read through a pointer to an odd offset of a byte buffer
 * ub: yes
 */
#include <cstdio>
#include <cstring>

int main(int argc, char **)
{
    alignas(8) unsigned char buf[16] = {};
    double v = 1.5 * argc;
    std::memcpy(buf + argc, &v, sizeof v);
    const double *p = reinterpret_cast<const double *>(buf + argc);
    std::printf("%.2f\n", *p);
    return 0;
}
