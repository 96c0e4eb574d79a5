/* C99's <math.h> for symgrad's own builds: its functions (double and float) and macros,
 * declared as GCC and Clang see them. Force-included through decls.h, which then defines
 * SG_MATH_DECLARED so that kernel.c skips its #include <math.h>.
 *
 * Why: a small kernel compiles in ~40 ms, and parsing glibc's <math.h> (1,100 lines after
 * preprocessing) took 6-9 ms of that, in every translation unit. These declarations name the
 * same functions, which both compilers know as builtins, and the macros are glibc's own
 * definitions under GCC, spelled alike (a later <math.h> would redefine them identically): the object code is the same byte for byte
 * (tests/build/test_math_decls.py compiles a corpus both ways and compares). A function left
 * out here is a compile error (-Werror=implicit-function-declaration), never an implicit int.
 */
#ifndef SG_MATH_DECLS_H
#define SG_MATH_DECLS_H

#define HUGE_VAL (__builtin_huge_val ())
#define HUGE_VALF (__builtin_huge_valf ())
#define INFINITY (__builtin_inff ())
#define NAN (__builtin_nanf (""))
#define isfinite(x) __builtin_isfinite (x)
#define isinf(x) __builtin_isinf_sign (x)
#define isnan(x) __builtin_isnan (x)
#define isnormal(x) __builtin_isnormal (x)
#define signbit(x) __builtin_signbit (x)
#define isgreater(x,y) __builtin_isgreater(x, y)
#define isgreaterequal(x,y) __builtin_isgreaterequal(x, y)
#define isless(x,y) __builtin_isless(x, y)
#define islessequal(x,y) __builtin_islessequal(x, y)
#define islessgreater(x,y) __builtin_islessgreater(x, y)
#define isunordered(x,y) __builtin_isunordered(x, y)

/* glibc's attributes: no exceptions, no calls back into this file (they matter where a
   function is no builtin: sin and cos under -fno-builtin-sin, for vector math). */
#if defined(__GNUC__) && !defined(__clang__)
#define SG_LIBM __attribute__((__nothrow__, __leaf__))
#else
#define SG_LIBM
#endif
/* One argument, one result (f: the float variant). */
#define SG_MATH1(name) double name(double) SG_LIBM; float name##f(float) SG_LIBM;
SG_MATH1(acos) SG_MATH1(asin) SG_MATH1(atan) SG_MATH1(cos) SG_MATH1(sin) SG_MATH1(tan)
SG_MATH1(acosh) SG_MATH1(asinh) SG_MATH1(atanh) SG_MATH1(cosh) SG_MATH1(sinh) SG_MATH1(tanh)
SG_MATH1(exp) SG_MATH1(exp2) SG_MATH1(expm1) SG_MATH1(log) SG_MATH1(log10) SG_MATH1(log1p)
SG_MATH1(log2) SG_MATH1(logb) SG_MATH1(cbrt) SG_MATH1(fabs) SG_MATH1(sqrt) SG_MATH1(erf)
SG_MATH1(erfc) SG_MATH1(lgamma) SG_MATH1(tgamma) SG_MATH1(ceil) SG_MATH1(floor)
SG_MATH1(nearbyint) SG_MATH1(rint) SG_MATH1(round) SG_MATH1(trunc)
/* Two arguments. */
#define SG_MATH2(name) double name(double, double) SG_LIBM; float name##f(float, float) SG_LIBM;
SG_MATH2(atan2) SG_MATH2(hypot) SG_MATH2(pow) SG_MATH2(fmod) SG_MATH2(remainder)
SG_MATH2(copysign) SG_MATH2(nextafter) SG_MATH2(fdim) SG_MATH2(fmax) SG_MATH2(fmin)
#undef SG_MATH1
#undef SG_MATH2
double fma(double, double, double) SG_LIBM; float fmaf(float, float, float) SG_LIBM;
double frexp(double, int *) SG_LIBM; float frexpf(float, int *) SG_LIBM;
double ldexp(double, int) SG_LIBM; float ldexpf(float, int) SG_LIBM;
double scalbn(double, int) SG_LIBM; float scalbnf(float, int) SG_LIBM;
double scalbln(double, long) SG_LIBM; float scalblnf(float, long) SG_LIBM;
double modf(double, double *) SG_LIBM; float modff(float, float *) SG_LIBM;
double remquo(double, double, int *) SG_LIBM; float remquof(float, float, int *) SG_LIBM;
double nan(const char *) SG_LIBM; float nanf(const char *) SG_LIBM;
int ilogb(double) SG_LIBM; int ilogbf(float) SG_LIBM;
long lrint(double) SG_LIBM; long lrintf(float) SG_LIBM;
long long llrint(double) SG_LIBM; long long llrintf(float) SG_LIBM;
long lround(double) SG_LIBM; long lroundf(float) SG_LIBM;
long long llround(double) SG_LIBM; long long llroundf(float) SG_LIBM;

#undef SG_LIBM

#endif
