/// Panamax tensor models on Apache Spark: batch inference and data-parallel training, in the shape
/// of Spark ML.
///
/// - `PanamaxClassifier` (an `Estimator`) trains a `ModuleFactory`'s architecture on a DataFrame:
///   every partition trains a copy on its own rows, and every K local steps the copies' parameters
///   and Adam moments are summed with `treeAggregate`, averaged and broadcast back.
/// - `PanamaxClassificationModel` (a `Model`) scores a DataFrame in `mapPartitions`, batch by batch,
///   the model built once per executor, each batch checked against the executor's native budget
///   (`ExecutorMemoryBudget`), a task's GPU (its resource address) picking the OpenCL device.
/// - `Mlp` is the architecture the spirals use; any serializable `ModuleFactory` will do.
///
/// Spark is `provided`: the cluster supplies Spark 4.2 (Scala 2.13). The JVMs need
/// `--enable-native-access=ALL-UNNAMED` and the `--add-opens` Spark needs on JDK 25 (README,
/// "Scale out on Apache Spark").
package dev.panamax.spark;
