package dev.panamax.core;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.DoublePredicate;

/**
 * What a {@link Setting} accepts: a closed set of kinds, each parsing strictly through
 * {@link Settings} (a bad value is an {@link IllegalArgumentException} naming the setting, the value
 * and what was expected) and saying in words what it accepts.
 *
 * @param <T> the parsed value's type
 */
public sealed interface SettingType<T> {
    /** {@code text} (trimmed, not blank) as a value; {@code property} names it in the error. */
    T parse(String property, String text);

    /** What the setting accepts, in words (e.g. "a whole number from 1 to 64"). */
    String accepts();

    /** {@code value} as it would be written on the command line. */
    default String format(T value) {
        return String.valueOf(value);
    }

    /** {@code true} or {@code false}, in any case. */
    static SettingType<Boolean> flag() {
        return new Flag();
    }

    /** A whole number from {@code min} to {@code max}. */
    static SettingType<Long> whole(long min, long max) {
        return new WholeNumber(min, max);
    }

    /** An int from {@code min} to {@code max}. */
    static SettingType<Integer> count(int min, int max) {
        return new Count(min, max);
    }

    /** A number for which {@code valid} holds; {@code accepts} says which. */
    static SettingType<Double> number(DoublePredicate valid, String accepts) {
        return new Decimal(valid, accepts);
    }

    /** A byte count such as {@code 4096}, {@code 64k}, {@code 512m}, {@code 1g}. */
    static SettingType<Long> bytes() {
        return new ByteCount();
    }

    /** One of {@code type}'s constants, in any case. */
    static <E extends Enum<E>> SettingType<E> choice(Class<E> type) {
        return new Choice<>(type);
    }

    /** Text that the reader parses itself; {@code accepts} says what it takes. */
    static SettingType<String> text(String accepts) {
        return new Text(accepts);
    }

    /** {@code true} or {@code false}. */
    record Flag() implements SettingType<Boolean> {
        @Override public Boolean parse(String property, String text) {
            return Settings.parseBool(property, text);
        }

        @Override public String accepts() {
            return "true or false";
        }
    }

    /** A long in [{@code min}, {@code max}]. */
    record WholeNumber(long min, long max) implements SettingType<Long> {
        @Override public Long parse(String property, String text) {
            return Settings.parseLong(property, text, min, max);
        }

        @Override public String accepts() {
            return Settings.wholeNumber(min, max);
        }
    }

    /** An int in [{@code min}, {@code max}]. */
    record Count(int min, int max) implements SettingType<Integer> {
        @Override public Integer parse(String property, String text) {
            return (int) Settings.parseLong(property, text, min, max);
        }

        @Override public String accepts() {
            return Settings.wholeNumber(min, max);
        }
    }

    /** A double for which {@code valid} holds. */
    record Decimal(DoublePredicate valid, String accepts) implements SettingType<Double> {
        public Decimal {
            Objects.requireNonNull(valid, "valid");
            Objects.requireNonNull(accepts, "accepts");
        }

        @Override public Double parse(String property, String text) {
            return Settings.parseNumber(property, text, valid, accepts);
        }
    }

    /** A byte count with an optional k/m/g/t suffix. */
    record ByteCount() implements SettingType<Long> {
        @Override public Long parse(String property, String text) {
            return Settings.parseBytes(property, text);
        }

        @Override public String accepts() {
            return Settings.BYTES;
        }

        @Override public String format(Long value) {
            long v = value;
            String[] units = {"t", "g", "m", "k"};
            for (int i = 0; i < units.length; i++) {
                long unit = 1L << (10 * (4 - i));
                if (v != 0 && v % unit == 0) return v / unit + units[i];
            }
            return Long.toString(v);
        }
    }

    /** One of an enum's constants. */
    record Choice<E extends Enum<E>>(Class<E> type) implements SettingType<E> {
        public Choice {
            Objects.requireNonNull(type, "type");
        }

        @Override public E parse(String property, String text) {
            return Settings.parseChoice(property, text, type);
        }

        @Override public String accepts() {
            return "one of " + String.join(", ", Arrays.stream(type.getEnumConstants()).map(Enum::name).toList());
        }
    }

    /** Text its reader parses. */
    record Text(String accepts) implements SettingType<String> {
        public Text {
            Objects.requireNonNull(accepts, "accepts");
        }

        @Override public String parse(String property, String text) {
            return text.trim();
        }
    }
}
