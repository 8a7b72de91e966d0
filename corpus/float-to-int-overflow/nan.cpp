/* ub-case
 * category: float-to-int-overflow
 * standard: C++17 [conv.fpint]/1
 * summary: converting NaN to int; x86-64 cvttsd2si returns INT_MIN
 * ub: yes
 * note: ARM's vcvt and aarch64's fcvtzs give 0 for NaN, riscv64's fcvt.w.d gives INT_MAX (nan.ARCH.output)
 * ub-line: 17
 * twin: nan.fixed.cpp
 */
#include <cmath>
#include <cstdio>

int main(int argc, char **)
{
    volatile double zero = 0.0;
    double nan = zero * argc / zero;
    int i = static_cast<int>(nan);
    std::printf("%d\n", i);
    return 0;
}
