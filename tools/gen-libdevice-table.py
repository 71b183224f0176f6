#!/usr/bin/env python3
"""Prints the table of compiler/frontend/LibdeviceTable.cpp (between its
`clang-format off` markers): every function of Triton's
python/triton/language/extra/cuda/libdevice.py (Triton 3.x) with its overloads
(argument types, libdevice symbol, result type), in that file's order.
Usage: tools/gen-libdevice-table.py > table.inc"""
spec = []
def F(*names, arity=1):
    for n in names:
        spec.append((n, [("f"*arity, f"__nv_{n}f", "f"), ("d"*arity, f"__nv_{n}", "d")], False))
def S(name, ovs, tobool=False):
    spec.append((name, ovs, tobool))
S("clz", [("i","__nv_clz","i"),("l","__nv_clzll","i")])
S("popc", [("i","__nv_popc","i"),("l","__nv_popcll","i")])
S("byte_perm", [("iii","__nv_byte_perm","i")])
S("mulhi", [("ii","__nv_mulhi","i"),("uu","__nv_umulhi","u"),("ll","__nv_mul64hi","l"),("UU","__nv_umul64hi","U")])
S("mul24", [("ii","__nv_mul24","i"),("uu","__nv_umul24","u")])
S("brev", [("i","__nv_brev","i"),("l","__nv_brevll","l")])
S("sad", [("iiu","__nv_sad","i"),("uuu","__nv_usad","u")])
S("abs", [("i","__nv_abs","i"),("l","__nv_llabs","l"),("f","__nv_fabsf","f"),("d","__nv_fabs","d")])
F("floor")
S("rcp64h", [("d","__nv_rcp64h","d")])
F("rsqrt","ceil","trunc","exp2")
S("saturatef", [("f","__nv_saturatef","f")])
for r in "rn rz rd ru".split():
    S("fma_"+r, [("fff",f"__nv_fmaf_{r}","f"),("ddd",f"__nv_fma_{r}","d")])
S("fast_dividef", [("ff","__nv_fast_fdividef","f")])
for r in "rn rz rd ru".split():
    S("div_"+r, [("ff",f"__nv_fdiv_{r}","f"),("dd",f"__nv_ddiv_{r}","d")])
for r in "rn rz rd ru".split():
    S("rcp_"+r, [("f",f"__nv_frcp_{r}","f"),("d",f"__nv_drcp_{r}","d")])
for r in "rn rz rd ru".split():
    S("sqrt_"+r, [("f",f"__nv_fsqrt_{r}","f"),("d",f"__nv_dsqrt_{r}","d")])
F("sqrt")
for r in "rn rz rd ru".split():
    S("add_"+r, [("dd",f"__nv_dadd_{r}","d"),("ff",f"__nv_fadd_{r}","f")])
for r in "rn rz rd ru".split():
    S("mul_"+r, [("dd",f"__nv_dmul_{r}","d"),("ff",f"__nv_fmul_{r}","f")])
for r in "rn rz rd ru".split(): S("double2float_"+r, [("d",f"__nv_double2float_{r}","f")])
for r in "rn rz rd ru".split(): S("double2int_"+r, [("d",f"__nv_double2int_{r}","i")])
for r in "rn rz rd ru".split(): S("double2uint_"+r, [("d",f"__nv_double2uint_{r}","u")])
S("int2double_rn", [("i","__nv_int2double_rn","d")])
S("uint2double_rn", [("u","__nv_uint2double_rn","d")])
for r in "rn rz rd ru".split(): S("float2int_"+r, [("f",f"__nv_float2int_{r}","i")])
for r in "rn rz rd ru".split(): S("float2uint_"+r, [("f",f"__nv_float2uint_{r}","u")])
for r in "rn rz rd ru".split(): S("int2float_"+r, [("i",f"__nv_int2float_{r}","f")])
for r in "rn rz rd ru".split(): S("uint2float_"+r, [("u",f"__nv_uint2float_{r}","f")])
S("hiloint2double", [("ii","__nv_hiloint2double","d")])
S("double2loint", [("d","__nv_double2loint","i")])
S("double2hiint", [("d","__nv_double2hiint","i")])
for r in "rn rz rd ru".split(): S("float2ll_"+r, [("f",f"__nv_float2ll_{r}","l")])
for r in "rn rz rd ru".split(): S("float2ull_"+r, [("f",f"__nv_float2ull_{r}","U")])
for r in "rn rz rd ru".split(): S("double2ll_"+r, [("d",f"__nv_double2ll_{r}","l")])
for r in "rn rz rd ru".split(): S("double2ull_"+r, [("d",f"__nv_double2ull_{r}","U")])
for r in "rn rz rd ru".split(): S("ll2float_"+r, [("l",f"__nv_ll2float_{r}","f")])
for r in "rn rz rd ru".split(): S("ull2float_"+r, [("U",f"__nv_ull2float_{r}","f")])
for r in "rn rz rd ru".split(): S("ll2double_"+r, [("l",f"__nv_ll2double_{r}","d")])
for r in "rn rz rd ru".split(): S("ull2double_"+r, [("U",f"__nv_ull2double_{r}","d")])
S("int_as_float", [("i","__nv_int_as_float","f")])
S("float_as_int", [("f","__nv_float_as_int","i")])
S("uint_as_float", [("u","__nv_uint_as_float","f")])
S("float_as_uint", [("f","__nv_float_as_uint","u")])
S("longlong_as_double", [("l","__nv_longlong_as_double","d")])
S("double_as_longlong", [("d","__nv_double_as_longlong","l")])
for n in "sinf cosf log2f logf expf tanf exp10f log10f".split():
    S("fast_"+n, [("f",f"__nv_fast_{n}","f")])
S("fast_powf", [("ff","__nv_fast_powf","f")])
S("hadd", [("ii","__nv_hadd","i"),("uu","__nv_uhadd","u")])
S("rhadd", [("ii","__nv_rhadd","i"),("uu","__nv_urhadd","u")])
for r in "rn rz rd ru".split():
    S("sub_"+r, [("ff",f"__nv_fsub_{r}","f"),("dd",f"__nv_dsub_{r}","d")])
S("rsqrt_rn", [("f","__nv_frsqrt_rn","f")])
S("ffs", [("i","__nv_ffs","i"),("l","__nv_ffsll","i")])
F("rint")
S("llrint", [("f","__nv_llrintf","l"),("d","__nv_llrint","l")])
F("nearbyint")
S("isnan", [("f","__nv_isnanf","i"),("d","__nv_isnand","i")], True)
S("signbit", [("f","__nv_signbitf","i"),("d","__nv_signbitd","i")])
F("copysign", arity=2)
S("finitef", [("f","__nv_finitef","i")])
S("isinf", [("f","__nv_isinff","i"),("d","__nv_isinfd","i")], True)
F("nextafter", arity=2)
F("sin","cos","sinpi","cospi","tan","log2","exp","exp10","cosh","sinh","tanh")
F("atan2", arity=2)
F("atan","asin","acos","log","log10","log1p","acosh","asinh","atanh","expm1")
F("hypot","rhypot", arity=2)
F("norm3d","rnorm3d", arity=3)
F("norm4d","rnorm4d", arity=4)
F("cbrt","rcbrt","j0","j1","y0","y1")
S("yn", [("if","__nv_ynf","f"),("id","__nv_yn","d")])
S("jn", [("if","__nv_jnf","f"),("id","__nv_jn","d")])
F("cyl_bessel_i0","cyl_bessel_i1","erf","erfinv","erfc","erfcx","erfcinv","normcdfinv","normcdf","lgamma")
S("ldexp", [("fi","__nv_ldexpf","f"),("di","__nv_ldexp","d")])
S("scalbn", [("fi","__nv_scalbnf","f"),("di","__nv_scalbn","d")])
F("fmod","remainder", arity=2)
F("fma", arity=3)
S("pow", [("fi","__nv_powif","f"),("di","__nv_powi","d"),("ff","__nv_powf","f"),("dd","__nv_pow","d")])
F("tgamma","round")
S("llround", [("f","__nv_llroundf","l"),("d","__nv_llround","l")])
F("fdim", arity=2)
S("ilogb", [("f","__nv_ilogbf","i"),("d","__nv_ilogb","i")])
F("logb")
S("isfinited", [("d","__nv_isfinited","i")])

out = []
for i,(n,ovs,tb) in enumerate(spec):
    arr = ", ".join('{"%s", "%s", \'%s\'}' % o for o in ovs)
    out.append("constexpr LibdeviceOverload k%d[] = {%s};" % (i, arr))
out.append("")
out.append("constexpr LibdeviceFunction kFunctions[] = {")
for i,(n,ovs,tb) in enumerate(spec):
    out.append('    {"%s", k%d%s},' % (n, i, ", true" if tb else ""))
out.append("};")
print("\n".join(out))
