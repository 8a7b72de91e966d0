/* ub-case
 * category: float-to-int-overflow
 * standard: C++17 [conv.fpint]/1
 * summary: converting 300.0 to unsigned char, which cannot hold it
 * ub: yes
 * note: converting through int and truncating gives 44, saturating gives 255
 * ub-line: 16
 * twin: to-unsigned-char.fixed.cpp
 */
#include <cstdio>

int main(int argc, char **)
{
    volatile double v = 300.0;
    double d = v * argc;
    unsigned char c = static_cast<unsigned char>(d);
    std::printf("%d\n", c);
    return 0;
}
