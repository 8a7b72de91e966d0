/* ub-case
 * category: control
 * standard: C++17 [string.classes]/1
 * summary: std::string building, searching, sorting and reversing, plus C string functions; no undefined behaviour
 * ub: no
 */
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char **)
{
    std::vector<std::string> words = {"undefined", "behaviour", "compiler", "warning", "optimiser"};
    std::string joined;
    for (const std::string &w : words)
        joined += w + (argc > 0 ? "," : ";");
    std::sort(words.begin(), words.end());
    std::string reversed(joined.rbegin(), joined.rend());
    char buf[64];
    std::strncpy(buf, words.front().c_str(), sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    std::strcat(buf, "+");
    std::printf("%s\n%s\n%zu %zu %s %d\n", joined.c_str(), reversed.c_str(), joined.find("warn"),
                std::strlen(buf), buf, std::strcmp(words[0].c_str(), words[1].c_str()) < 0);
    return 0;
}
