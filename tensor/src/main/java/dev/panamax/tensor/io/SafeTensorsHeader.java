package dev.panamax.tensor.io;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.Shape;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON header of a safetensors file: every tensor's dtype, shape and {@code data_offsets}, and
 * the {@code __metadata__} string map. {@link #parse} checks what the reference implementation
 * (huggingface/safetensors) checks, before a byte of tensor memory is allocated: each tensor's byte
 * range matches its dtype and shape, the ranges tile the data exactly (no overlap, no gap) and end
 * where the file ends. A header therefore cannot make the reader allocate more than the file holds.
 *
 * <pre>{@code
 * {"__metadata__":{"step":"5"},"0.weight":{"dtype":"F32","shape":[4,2],"data_offsets":[0,32]}, ...}
 * }</pre>
 */
public record SafeTensorsHeader(List<SafeTensorsEntry> entries, Map<String, String> metadata) {
    /** The key of the metadata map in the header. */
    public static final String METADATA = "__metadata__";
    /** The largest header the reference implementation reads (100 MB). */
    public static final long MAX_BYTES = 100_000_000;

    private static final JsonFactory JSON = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    public SafeTensorsHeader {
        entries = List.copyOf(entries);
        metadata = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /** The entry called {@code name}, or null. */
    public SafeTensorsEntry entry(String name) {
        for (SafeTensorsEntry e : entries) if (e.name().equals(name)) return e;
        return null;
    }

    /** The total number of data bytes after the header. */
    public long dataBytes() {
        long end = 0;
        for (SafeTensorsEntry e : entries) end = Math.max(end, e.end());
        return end;
    }

    /**
     * This header as JSON, padded with spaces so that the data after it starts at a multiple of 8
     * bytes from the file's start (as the reference writer pads it).
     */
    public byte[] encode() {
        var bytes = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(bytes, JsonEncoding.UTF8)) {
            g.writeStartObject();
            if (!metadata.isEmpty()) {
                g.writeObjectFieldStart(METADATA);
                for (Map.Entry<String, String> m : metadata.entrySet()) g.writeStringField(m.getKey(), m.getValue());
                g.writeEndObject();
            }
            for (SafeTensorsEntry e : entries) {
                g.writeObjectFieldStart(e.name());
                g.writeStringField("dtype", SafeTensorsEntry.formatName(e.dtype()));
                g.writeArrayFieldStart("shape");
                for (int d : e.shape().dims()) g.writeNumber(d);
                g.writeEndArray();
                g.writeArrayFieldStart("data_offsets");
                g.writeNumber(e.begin());
                g.writeNumber(e.end());
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot encode a safetensors header", e); // in memory: not expected
        }
        while ((8 + bytes.size()) % 8 != 0) bytes.write(' ');
        return bytes.toByteArray();
    }

    /**
     * Parses and checks a header of a file whose data part (after the header) holds
     * {@code dataLength} bytes; every error is an {@link IOException} naming {@code file}, the
     * tensor and what was expected.
     */
    public static SafeTensorsHeader parse(byte[] json, String file, long dataLength) throws IOException {
        List<SafeTensorsEntry> entries = new ArrayList<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(file + ": the safetensors header at offset 8 is not a JSON object (it starts with "
                        + describe(p.currentToken(), p) + "); expected {\"name\": {\"dtype\": ..., \"shape\": ..., \"data_offsets\": ...}, ...}");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals(METADATA)) {
                    if (value == JsonToken.VALUE_NULL) continue;
                    if (value != JsonToken.START_OBJECT) throw new IOException(file + ": header " + METADATA + " is " + describe(value, p)
                            + "; expected an object of strings");
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String key = p.currentName();
                        JsonToken v = p.nextToken();
                        if (v != JsonToken.VALUE_STRING) {
                            throw new IOException(file + ": header " + METADATA + " value of '" + key + "' is " + describe(v, p)
                                    + "; expected a string (safetensors metadata maps strings to strings)");
                        }
                        metadata.put(key, p.getText());
                    }
                } else {
                    entries.add(tensor(p, value, name, file, dataLength));
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw new IOException(file + ": the safetensors header has " + describe(p.currentToken(), p)
                        + " after its object; expected the header to be one JSON object (padded with spaces)");
            }
        } catch (JsonProcessingException e) {
            throw new IOException(file + ": the safetensors header is not valid JSON: " + e.getOriginalMessage()
                    + " (at byte " + (8 + e.getLocation().getByteOffset()) + " of the file)", e);
        }
        checkTiling(entries, file, dataLength);
        return new SafeTensorsHeader(entries, metadata);
    }

    private static SafeTensorsEntry tensor(JsonParser p, JsonToken value, String name, String file, long dataLength) throws IOException {
        String where = file + ": tensor '" + name + "'";
        if (value != JsonToken.START_OBJECT) {
            throw new IOException(where + " is described by " + describe(value, p) + "; expected {\"dtype\", \"shape\", \"data_offsets\"}");
        }
        String dtypeName = null;
        long[] shape = null, offsets = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "dtype" -> {
                    if (v != JsonToken.VALUE_STRING) throw new IOException(where + ": dtype is " + describe(v, p) + "; expected a string such as \"F32\"");
                    dtypeName = p.getText();
                }
                case "shape" -> shape = longs(p, v, where + ": shape", -1);
                case "data_offsets" -> offsets = longs(p, v, where + ": data_offsets", 2);
                default -> p.skipChildren(); // as the reference reader, which ignores fields it does not know
            }
        }
        if (dtypeName == null || shape == null || offsets == null) {
            throw new IOException(where + " has no " + (dtypeName == null ? "dtype" : shape == null ? "shape" : "data_offsets")
                    + "; expected dtype, shape and data_offsets");
        }
        DType dtype = dtype(dtypeName, where);
        int[] dims = new int[shape.length];
        long elements = 1;
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] > Integer.MAX_VALUE) {
                throw new IOException(where + ": shape " + Arrays.toString(shape) + " has " + shape[i] + " at axis " + i
                        + "; a tensor dimension is at most " + Integer.MAX_VALUE);
            }
            dims[i] = (int) shape[i];
            elements = elements < 0 || Math.multiplyHigh(elements, shape[i]) != 0 || elements * shape[i] < 0 ? -1 : elements * shape[i];
        }
        long bytes = elements < 0 || elements > Long.MAX_VALUE / dtype.byteSize() ? -1 : elements * dtype.byteSize();
        long begin = offsets[0], end = offsets[1];
        if (end < begin) {
            throw new IOException(where + ": data_offsets [" + begin + ", " + end + "] end before they begin; expected [begin, end] with begin <= end");
        }
        if (end > dataLength) {
            throw new IOException(where + ": data_offsets [" + begin + ", " + end + "] run past the data, which holds " + dataLength
                    + " bytes after the header (the file is truncated, or its header is wrong)");
        }
        if (bytes != end - begin) {
            throw new IOException(where + ": " + dtypeName + " shape " + Arrays.toString(shape) + " needs "
                    + (bytes < 0 ? "more than 2^63" : String.valueOf(bytes)) + " bytes; its data_offsets [" + begin + ", " + end
                    + "] hold " + (end - begin));
        }
        return new SafeTensorsEntry(name, dtype, Shape.of(dims), begin, end);
    }

    /** The ranges must cover {@code [0, dataLength)} exactly once, as the reference reader requires. */
    private static void checkTiling(List<SafeTensorsEntry> entries, String file, long dataLength) throws IOException {
        List<SafeTensorsEntry> byOffset = new ArrayList<>(entries);
        byOffset.sort(Comparator.comparingLong(SafeTensorsEntry::begin).thenComparingLong(SafeTensorsEntry::end));
        long at = 0;
        SafeTensorsEntry previous = null;
        for (SafeTensorsEntry e : byOffset) {
            if (e.begin() < at) {
                throw new IOException(file + ": tensor '" + e.name() + "' (data_offsets [" + e.begin() + ", " + e.end() + "]) overlaps tensor '"
                        + previous.name() + "' (data_offsets [" + previous.begin() + ", " + previous.end() + "]); expected each byte in one tensor");
            }
            if (e.begin() > at) {
                throw new IOException(file + ": bytes [" + at + ", " + e.begin() + ") of the data belong to no tensor (a gap before tensor '"
                        + e.name() + "'); expected the tensors' data_offsets to cover the data without gaps");
            }
            previous = e;
            at = e.end();
        }
        if (at != dataLength) {
            throw new IOException(file + ": the tensors' data ends at byte " + at + " after the header; the file holds " + dataLength
                    + " bytes there; expected the data to end where the file ends");
        }
    }

    private static DType dtype(String name, String where) throws IOException {
        return switch (name) {
            case "F32" -> DType.F32;
            case "F16" -> DType.F16;
            case "I32" -> DType.I32;
            case "I64" -> DType.I64;
            case "BOOL", "U8", "I8", "I16", "U16", "U32", "U64", "F64", "BF16", "F8_E4M3", "F8_E5M2", "F8_E8M0", "F4", "F6_E2M3",
                 "F6_E3M2", "C64" -> throw new IOException(where + ": dtype " + name
                    + " is a safetensors dtype Panamax tensors do not hold; expected F32, F16, I32 or I64");
            default -> throw new IOException(where + ": unknown dtype \"" + name + "\"; expected F32, F16, I32 or I64");
        };
    }

    /** An array of non-negative integers ({@code count} of them, or any number for -1). */
    private static long[] longs(JsonParser p, JsonToken v, String what, int count) throws IOException {
        if (v != JsonToken.START_ARRAY) throw new IOException(what + " is " + describe(v, p) + "; expected an array of non-negative integers");
        List<Long> values = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER || p.getLongValue() < 0) {
                throw new IOException(what + " holds " + describe(t, p) + "; expected non-negative integers below 2^63");
            }
            values.add(p.getLongValue());
        }
        if (count >= 0 && values.size() != count) {
            throw new IOException(what + " has " + values.size() + " numbers " + values + "; expected " + count + " ([begin, end])");
        }
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    private static String describe(JsonToken t, JsonParser p) throws IOException {
        if (t == null) return "nothing";
        return switch (t) {
            case VALUE_STRING -> "the string \"" + p.getText() + "\"";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "the number " + p.getText();
            case VALUE_TRUE, VALUE_FALSE, VALUE_NULL -> p.getText();
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            default -> t.asString() != null ? "'" + t.asString() + "'" : t.name();
        };
    }
}
