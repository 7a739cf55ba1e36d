// rtserve native CUDA engine: cuDNN's legacy (v7-style) convolution descriptors.
#pragma once
#include "conv-spec.cuh"

namespace rt {

/** The legacy (v7-style) descriptors: cudnnConvolutionBiasActivationForward / cudnnConvolutionForward. */
struct LegacyDescs {
  cudnnTensorDescriptor_t x = nullptr, y = nullptr, b = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnActivationDescriptor_t act = nullptr;
  LegacyDescs(const ConvSpec& s, bool relu) {
    if (s.pt != s.pb || s.pl != s.pr) throw std::runtime_error("legacy cuDNN needs symmetric padding");
    CKDNN(cudnnCreateTensorDescriptor(&x));
    CKDNN(cudnnCreateTensorDescriptor(&y));
    CKDNN(cudnnCreateTensorDescriptor(&b));
    CKDNN(cudnnCreateFilterDescriptor(&w));
    CKDNN(cudnnCreateConvolutionDescriptor(&conv));
    CKDNN(cudnnCreateActivationDescriptor(&act));
    CKDNN(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, (int)s.n, (int)s.c, (int)s.h, (int)s.wd));
    CKDNN(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, (int)s.n, (int)s.k, (int)s.oh, (int)s.ow));
    CKDNN(cudnnSetTensor4dDescriptor(b, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, (int)s.k, 1, 1));
    CKDNN(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC, (int)s.k, (int)(s.c / s.groups), (int)s.r, (int)s.s));
    CKDNN(cudnnSetConvolution2dDescriptor(conv, (int)s.pt, (int)s.pl, (int)s.sh, (int)s.sw, (int)s.dh, (int)s.dw, CUDNN_CROSS_CORRELATION,
                                          CUDNN_DATA_FLOAT));
    CKDNN(cudnnSetConvolutionGroupCount(conv, (int)s.groups));
    CKDNN(cudnnSetConvolutionMathType(conv, CUDNN_TENSOR_OP_MATH));
    CKDNN(cudnnSetActivationDescriptor(act, relu ? CUDNN_ACTIVATION_RELU : CUDNN_ACTIVATION_IDENTITY, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    int on, oc, ohh, oww;
    CKDNN(cudnnGetConvolution2dForwardOutputDim(conv, x, w, &on, &oc, &ohh, &oww));
    if (on != s.n || oc != s.k || ohh != s.oh || oww != s.ow) throw std::runtime_error("legacy cuDNN output shape differs from the plan's");
  }
  ~LegacyDescs() {
    if (x) cudnnDestroyTensorDescriptor(x);
    if (y) cudnnDestroyTensorDescriptor(y);
    if (b) cudnnDestroyTensorDescriptor(b);
    if (w) cudnnDestroyFilterDescriptor(w);
    if (conv) cudnnDestroyConvolutionDescriptor(conv);
    if (act) cudnnDestroyActivationDescriptor(act);
  }
};

}  // namespace rt
