//===- AxisInfo.h - contiguity, divisibility and constancy ------*- C++ -*-===//
//
// This file declares the axis analysis: a sparse forward dataflow analysis
// (as Triton's AxisInfo) that tells, per value and per dimension, how long the
// runs of consecutive (+1) values are (contiguity), the largest power of two
// dividing the first element of each run (divisibility; in bytes for
// pointers), and how long the runs of equal values are (constancy). Coalescing
// and vector widths of loads and stores are derived from it.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_GPU_AXISINFO_H
#define MGP_CODEGEN_GPU_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mgp {

/// The facts the axis analysis tracks for one value. Scalars have rank 1.
class AxisInfo {
public:
  using DimVector = llvm::SmallVector<int64_t, 4>;

  /// The largest divisibility tracked (the divisibility of 0).
  static constexpr int64_t kMaxDivisor = int64_t(1) << 30;

  AxisInfo() = default;
  AxisInfo(DimVector contiguity, DimVector divisibility, DimVector constancy,
           std::optional<int64_t> constantValue = std::nullopt)
      : contiguity(std::move(contiguity)),
        divisibility(std::move(divisibility)), constancy(std::move(constancy)),
        constantValue(constantValue) {}

  /// The most conservative facts for `value` (runs of length 1, divisor 1),
  /// refined by a `mgp.divisibility` argument attribute for function
  /// arguments.
  static AxisInfo getPessimisticValueState(mlir::Value value);
  /// The facts of a value that is `constant` everywhere, with `shape` (empty
  /// for a scalar).
  static AxisInfo getConstant(int64_t constant, llvm::ArrayRef<int64_t> shape);
  /// The facts true for both `lhs` and `rhs` (dataflow join).
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  /// The largest power of two dividing `value` (kMaxDivisor for 0).
  static int64_t highestPowOf2Divisor(int64_t value);

  int64_t getContiguity(unsigned dim) const { return contiguity[dim]; }
  int64_t getDivisibility(unsigned dim) const { return divisibility[dim]; }
  int64_t getConstancy(unsigned dim) const { return constancy[dim]; }
  const DimVector &getContiguity() const { return contiguity; }
  const DimVector &getDivisibility() const { return divisibility; }
  const DimVector &getConstancy() const { return constancy; }
  std::optional<int64_t> getConstantValue() const { return constantValue; }
  unsigned getRank() const { return contiguity.size(); }
  /// An uninitialized state (no facts yet) has rank 0.
  bool isUninitialized() const { return contiguity.empty(); }

  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility && constancy == other.constancy &&
           constantValue == other.constantValue;
  }
  void print(llvm::raw_ostream &os) const;

private:
  DimVector contiguity;
  DimVector divisibility;
  DimVector constancy;
  std::optional<int64_t> constantValue;
};

/// The lattice element of the analysis.
using AxisInfoLattice = mlir::dataflow::Lattice<AxisInfo>;

/// Runs the axis analysis over a module and answers queries on its values.
class ModuleAxisInfo {
public:
  explicit ModuleAxisInfo(mlir::ModuleOp module);
  /// The facts for `value`; pessimistic facts when the analysis has none.
  AxisInfo get(mlir::Value value) const;

  /// Elements of the pointer tensor `ptr` that can be accessed as one aligned
  /// vector along `dim`: min(contiguity, divisibility / element bytes).
  int64_t getPtrContiguity(mlir::Value ptr, unsigned dim) const;
  /// Elements along `dim` over which the mask `mask` is constant.
  int64_t getMaskConstancy(mlir::Value mask, unsigned dim) const;

private:
  mlir::DataFlowSolver solver;
};

/// The order of the dims of a pointer tensor by decreasing contiguity (ties:
/// the later dim first), as Triton's getOrderFromContiguity.
llvm::SmallVector<unsigned> getOrderFromContiguity(const AxisInfo &info);

/// The size in bytes of the element of `type` (pointer: 8, i1: 1).
int64_t getElementBytes(mlir::Type type);
/// The size in bytes of what the pointer (tensor) `ptrLike` points to.
int64_t getPointeeBytes(mlir::Type ptrLike);

} // namespace mgp

#endif // MGP_CODEGEN_GPU_AXISINFO_H
