package dev.panamax.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * Records as bytes for the trip through Spark's data serializer. With
 * {@code spark.serializer=KryoSerializer} Spark serializes broadcasts and task results with Kryo,
 * whose field serializer writes fields through {@code Unsafe} and fails on a record ("can't get field
 * offset on a record class"); a {@code byte[]} of Java serialization crosses either serializer, so
 * the broadcast weights and the partitions' round results travel as one, with no setting for users
 * to add. Classes resolve through the thread's context class loader (the user's jar on an executor).
 */
final class Wire {
    private Wire() {}

    static byte[] encode(Serializable value) {
        var bytes = new ByteArrayOutputStream();
        try (var out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serialize " + value.getClass().getName(), e);
        }
        return bytes.toByteArray();
    }

    static <T> T decode(byte[] bytes, Class<T> type) {
        try (var in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                ClassLoader loader = Thread.currentThread().getContextClassLoader();
                if (loader == null) return super.resolveClass(desc);
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    return super.resolveClass(desc);
                }
            }
        }) {
            return type.cast(in.readObject());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a " + type.getSimpleName() + " (" + bytes.length + " bytes)", e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("cannot read a " + type.getSimpleName() + ": class " + e.getMessage()
                    + " is missing here; expected panamax-spark's jar on every executor's class path", e);
        }
    }
}
