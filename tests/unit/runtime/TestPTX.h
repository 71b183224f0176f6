//===- TestPTX.h - hand-written PTX kernels for the GPU tests ---*- C++ -*-===//
//
// This file implements two small kernels in PTX text for sm_80 (loaded on any
// newer GPU), written by hand so that the driver layer is tested without the
// compiler: an elementwise add and a block reversal through dynamic shared
// memory on a 2-D grid. Both pass `ptxas -arch=sm_80`.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_RUNTIME_TESTPTX_H
#define MGP_TESTS_UNIT_RUNTIME_TESTPTX_H

namespace mgp::test {

/// out[i] = x[i] + y[i] for i < n; one thread per element.
inline constexpr const char *kVectorAddPTX = R"(
.version 7.0
.target sm_80
.address_size 64

.visible .entry vector_add(
    .param .u64 x_ptr,
    .param .u64 y_ptr,
    .param .u64 out_ptr,
    .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<11>;

    ld.param.u64 %rd1, [x_ptr];
    ld.param.u64 %rd2, [y_ptr];
    ld.param.u64 %rd3, [out_ptr];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.s32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mul.wide.s32 %rd7, %r5, 4;
    add.s64 %rd8, %rd4, %rd7;
    add.s64 %rd9, %rd5, %rd7;
    add.s64 %rd10, %rd6, %rd7;
    ld.global.f32 %f1, [%rd8];
    ld.global.f32 %f2, [%rd9];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd10], %f3;
DONE:
    ret;
}
)";

/// Each block of the 2-D grid reverses its slice of `in` into `out` through
/// the last 4 * ntid bytes of `shared_bytes` of dynamic shared memory.
inline constexpr const char *kReverseBlocksPTX = R"(
.version 7.0
.target sm_80
.address_size 64

.extern .shared .align 16 .b8 smem[];

.visible .entry reverse_blocks(
    .param .u64 in_ptr,
    .param .u64 out_ptr,
    .param .u32 shared_bytes)
{
    .reg .b32 %r<20>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<10>;

    ld.param.u64 %rd1, [in_ptr];
    ld.param.u64 %rd2, [out_ptr];
    ld.param.u32 %r1, [shared_bytes];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ctaid.y;
    mov.u32 %r4, %nctaid.x;
    mad.lo.s32 %r5, %r3, %r4, %r2;
    mov.u32 %r6, %ntid.x;
    mov.u32 %r7, %tid.x;
    mad.lo.s32 %r8, %r5, %r6, %r7;
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mul.wide.s32 %rd5, %r8, 4;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.f32 %f1, [%rd6];
    shl.b32 %r9, %r6, 2;
    sub.s32 %r10, %r1, %r9;
    mov.u32 %r11, smem;
    add.s32 %r12, %r11, %r10;
    shl.b32 %r13, %r7, 2;
    add.s32 %r14, %r12, %r13;
    st.shared.f32 [%r14], %f1;
    bar.sync 0;
    sub.s32 %r15, %r6, %r7;
    sub.s32 %r16, %r15, 1;
    shl.b32 %r17, %r16, 2;
    add.s32 %r18, %r12, %r17;
    ld.shared.f32 %f2, [%r18];
    add.s64 %rd7, %rd4, %rd5;
    st.global.f32 [%rd7], %f2;
    ret;
}
)";

} // namespace mgp::test

#endif // MGP_TESTS_UNIT_RUNTIME_TESTPTX_H
