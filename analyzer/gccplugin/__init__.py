"""The warnscope GCC plugin (C++, built by Meson per GCC) and its Python driver."""
