//===- CudaGraph.cpp - CUDA graphs captured from a stream -----------------===//
//
// This file implements CudaGraph (stream capture, node count, destruction) and
// CudaGraphExec (instantiation, launch, destruction). A failed capture always
// ends the capture before returning, so the stream leaves capture mode.
//
//===----------------------------------------------------------------------===//
#include "runtime/CudaGraph.h"

using namespace mgp;

static llvm::Error graphError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Expected<CudaGraph>
CudaGraph::capture(CUstream stream, llvm::function_ref<llvm::Error()> enqueue) {
  if (!stream)
    return graphError("CUDA graph capture needs a created stream (the legacy "
                      "default stream cannot be captured)");
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  if (llvm::Error err =
          driver->check(driver->cuStreamBeginCapture(
                            stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                        "cuStreamBeginCapture"))
    return std::move(err);
  llvm::Error enqueued = enqueue();
  CUgraph graph = nullptr;
  CUresult ended = driver->cuStreamEndCapture(stream, &graph);
  if (enqueued) {
    if (graph)
      (void)driver->cuGraphDestroy(graph);
    return graphError("while capturing a CUDA graph: " +
                      llvm::toString(std::move(enqueued)));
  }
  if (llvm::Error err = driver->check(ended, "cuStreamEndCapture")) {
    if (graph)
      (void)driver->cuGraphDestroy(graph);
    return std::move(err);
  }
  return CudaGraph(*driver, graph);
}

llvm::Expected<size_t> CudaGraph::numNodes() const {
  size_t count = 0;
  if (llvm::Error err = driver->check(
          driver->cuGraphGetNodes(graph, nullptr, &count), "cuGraphGetNodes"))
    return std::move(err);
  return count;
}

CudaGraph &CudaGraph::operator=(CudaGraph &&other) noexcept {
  if (this != &other) {
    this->~CudaGraph();
    new (this) CudaGraph(std::move(other));
  }
  return *this;
}

CudaGraph::~CudaGraph() {
  if (graph)
    (void)driver->cuGraphDestroy(graph);
}

llvm::Expected<CudaGraphExec>
CudaGraphExec::instantiate(const CudaGraph &graph) {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  CUgraphExec exec = nullptr;
  if (llvm::Error err =
          driver->check(driver->cuGraphInstantiate(&exec, graph.handle(), 0),
                        "cuGraphInstantiate"))
    return std::move(err);
  return CudaGraphExec(*driver, exec);
}

llvm::Error CudaGraphExec::launch(CUstream stream) const {
  if (!stream)
    return graphError("cuGraphLaunch: replay a CUDA graph on a created stream, "
                      "not the legacy default stream");
  return driver->check(driver->cuGraphLaunch(exec, stream), "cuGraphLaunch");
}

CudaGraphExec &CudaGraphExec::operator=(CudaGraphExec &&other) noexcept {
  if (this != &other) {
    this->~CudaGraphExec();
    new (this) CudaGraphExec(std::move(other));
  }
  return *this;
}

CudaGraphExec::~CudaGraphExec() {
  if (exec)
    (void)driver->cuGraphExecDestroy(exec);
}
