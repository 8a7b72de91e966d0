/* ub-case
 * category: float-to-int-overflow
 * standard: C++17 [conv.fpint]/1
 * summary: the fixed twin of to-unsigned-char.cpp: converted through int, then truncated
 * ub: no
 * fixes: to-unsigned-char.cpp
 * fixed-line: 15
 */
#include <cstdio>

int main(int argc, char **)
{
    volatile double v = 300.0;
    double d = v * argc;
    unsigned char c = static_cast<unsigned char>(static_cast<int>(d));
    std::printf("%d\n", c);
    return 0;
}
