package dev.panamax.spark;

import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.io.Serializable;
import java.util.List;

/**
 * Reads a row's features into a batch: a column of {@code array<float>}, {@code array<double>} or
 * Spark ML {@code Vector}s, each row exactly {@code width} values. A row that has another length,
 * or none, is refused naming the partition, the row (its position in the partition) and the column.
 *
 * @param column the features column
 * @param index  its position in the rows
 * @param width  values per row the model takes
 */
record Features(String column, int index, int width) implements Serializable {
    /** The reader of {@code column} in rows of {@code schema}; refuses a column of another type. */
    static Features of(StructType schema, String column, int width) {
        int index;
        try {
            index = schema.fieldIndex(column);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("no features column '" + column + "'; the columns are " + List.of(schema.fieldNames()));
        }
        DataType type = schema.fields()[index].dataType();
        if (!isFeatures(type)) {
            throw new IllegalArgumentException("features column '" + column + "' is " + type.simpleString()
                    + "; expected array<float>, array<double> or a Spark ML vector");
        }
        return new Features(column, index, width);
    }

    private static boolean isFeatures(DataType type) {
        if (type instanceof ArrayType a) return a.elementType().equals(DataTypes.FloatType) || a.elementType().equals(DataTypes.DoubleType);
        return type.equals(SQLDataTypes.VectorType());
    }

    /** Copies row {@code row}'s features into {@code into} at {@code offset}. */
    void read(Row row, int partition, long rowInPartition, float[] into, int offset) {
        if (row.isNullAt(index)) throw wrongRow(partition, rowInPartition, "is null");
        Object value = row.get(index);
        switch (value) {
            case Vector v -> {
                check(v.size(), partition, rowInPartition);
                for (int i = 0; i < width; i++) into[offset + i] = (float) v.apply(i);
            }
            case scala.collection.Seq<?> seq -> {
                check(seq.length(), partition, rowInPartition);
                for (int i = 0; i < width; i++) into[offset + i] = element(seq.apply(i), partition, rowInPartition, i);
            }
            default -> {
                List<?> list = row.getList(index);
                check(list.size(), partition, rowInPartition);
                for (int i = 0; i < width; i++) into[offset + i] = element(list.get(i), partition, rowInPartition, i);
            }
        }
    }

    private float element(Object v, int partition, long row, int i) {
        if (v == null) throw wrongRow(partition, row, "has null at index " + i);
        return ((Number) v).floatValue();
    }

    private void check(int length, int partition, long row) {
        if (length != width) throw wrongRow(partition, row, "has " + length + " values");
    }

    private IllegalArgumentException wrongRow(int partition, long row, String what) {
        return new IllegalArgumentException("partition " + partition + ", row " + row + ": features column '" + column + "' " + what
                + "; expected " + width + " values (the model's input width)");
    }
}
