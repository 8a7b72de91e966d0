/* ub-case
 * category: format-mismatch
 * standard: C17 7.21.6.1p9
 * summary: the fixed twin of string-as-int.cpp: %s is given the string
 * ub: no
 * fixes: string-as-int.cpp
 * fixed-line: 16
 */
#include <cstdio>
#include <cstring>

int main(int argc, char **)
{
    const char *word = argc > 1 ? "word" : "";
    std::size_t n = std::strlen(word);
    std::printf("[%s] %zu\n", word, n);
    return 0;
}
