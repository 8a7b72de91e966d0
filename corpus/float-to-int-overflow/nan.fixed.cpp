/* ub-case
 * category: float-to-int-overflow
 * standard: C++17 [conv.fpint]/1
 * summary: the fixed twin of nan.cpp: NaN is tested for and given the value x86-64 produces
 * ub: no
 * fixes: nan.cpp
 * fixed-line: 18
 */
#include <cmath>
#include <climits>
#include <cmath>
#include <cstdio>

int main(int argc, char **)
{
    volatile double zero = 0.0;
    double nan = zero * argc / zero;
    int i = std::isnan(nan) ? INT_MIN : static_cast<int>(nan);
    std::printf("%d\n", i);
    return 0;
}
