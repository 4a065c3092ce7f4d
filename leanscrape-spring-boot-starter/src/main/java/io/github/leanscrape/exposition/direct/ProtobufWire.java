package io.github.leanscrape.exposition.direct;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import io.github.leanscrape.exposition.ChunkedOutput;

/**
 * The protobuf wire format as client_java's writer produces Prometheus'
 * {@code metrics.proto} (proto2, so a field that is set is written even when it is zero):
 * the tags of the fields written here, the sizes of varints, strings and timestamps, and
 * the fields that never change, encoded once.
 * <p>
 * A tag is {@code field number << 3 | wire type}: 0 for a varint, 1 for eight bytes, 2
 * for a length and that many bytes. Fields go out in ascending number, as protobuf's
 * generated code writes them.
 *
 * @author leanscrape
 */
final class ProtobufWire {

	/** {@code MetricFamily.name}, {@code LabelPair.name}, {@code Metric.label}. */
	static final byte FIELD_1_BYTES = 0x0A;

	/** {@code MetricFamily.help}, {@code LabelPair.value}, {@code Metric.gauge}. */
	static final byte FIELD_2_BYTES = 0x12;

	/** {@code Metric.counter}, {@code Summary.quantile}, {@code Bucket.exemplar}. */
	static final int FIELD_3_BYTES = 0x1A;

	/** {@code MetricFamily.metric}, {@code Metric.summary}. */
	static final int FIELD_4_BYTES = 0x22;

	/** {@code Metric.histogram}. */
	static final int FIELD_7_BYTES = 0x3A;

	/** {@code Gauge.value}, {@code Counter.value}, {@code Quantile.quantile}. */
	static final int FIELD_1_DOUBLE = 0x09;

	/**
	 * {@code Summary.sample_sum}, {@code Histogram.sample_sum},
	 * {@code Bucket.upper_bound}.
	 */
	static final int FIELD_2_DOUBLE = 0x11;

	/**
	 * {@code Summary.sample_count}, {@code Histogram.sample_count},
	 * {@code Bucket.cumulative_count}.
	 */
	static final int FIELD_1_VARINT = 0x08;

	/** {@code Timestamp.nanos}. */
	static final int FIELD_2_VARINT = 0x10;

	/** {@code MetricFamily.type}. */
	private static final int FIELD_3_VARINT = 0x18;

	/** A tag and a double: eight bytes and their tag. */
	static final int DOUBLE_FIELD = 1 + Long.BYTES;

	private ProtobufWire() {
	}

	/**
	 * Return how many bytes a value takes as a varint.
	 * @param value the value, negative ones taking ten bytes
	 * @return from 1 to 10
	 */
	static int varintSize(long value) {
		return (63 - Long.numberOfLeadingZeros(value | 1)) / 7 + 1;
	}

	/**
	 * Put a varint into an array.
	 * @param value the value, not negative
	 * @param into the array
	 * @param at where in it
	 * @return the position after the varint
	 */
	static int putVarint(long value, byte[] into, int at) {
		while ((value & ~0x7FL) != 0) {
			into[at++] = (byte) ((value & 0x7F) | 0x80);
			value >>>= 7;
		}
		into[at++] = (byte) value;
		return at;
	}

	/**
	 * Return how many bytes a length-delimited field (a message, a string) takes: its
	 * tag, its length, its bytes.
	 * @param size the size of the message or string
	 * @return the size of the field
	 */
	static int messageField(int size) {
		return 1 + varintSize(size) + size;
	}

	/**
	 * Return the size of a {@code LabelPair}: its name and value fields.
	 * @param nameLength the name's length in UTF-8
	 * @param valueLength the value's length in UTF-8
	 * @return its size
	 */
	static int labelPairSize(int nameLength, int valueLength) {
		return messageField(nameLength) + messageField(valueLength);
	}

	/**
	 * Return the size of a {@code google.protobuf.Timestamp}, which is proto3: a zero
	 * field is left out.
	 * @param millis milliseconds since the epoch
	 * @return its size
	 */
	static int timestampSize(long millis) {
		long seconds = millis / 1000;
		int nanos = nanos(millis);
		return ((seconds != 0) ? 1 + varintSize(seconds) : 0) + ((nanos != 0) ? 1 + varintSize(nanos) : 0);
	}

	/**
	 * Write a {@code google.protobuf.Timestamp} as client_java makes it from
	 * milliseconds.
	 * @param millis milliseconds since the epoch
	 * @param out the output
	 */
	static void writeTimestamp(long millis, ChunkedOutput out) {
		long seconds = millis / 1000;
		int nanos = nanos(millis);
		if (seconds != 0) {
			out.write(FIELD_1_VARINT);
			out.writeVarint(seconds);
		}
		if (nanos != 0) {
			out.write(FIELD_2_VARINT);
			out.writeVarint(nanos);
		}
	}

	private static int nanos(long millis) {
		return (int) (millis % 1000 * 1_000_000);
	}

	/**
	 * Write a double field.
	 * @param tag its tag
	 * @param value the value, whose bits are written as they are (NaN payloads too)
	 * @param out the output
	 */
	static void writeDouble(int tag, double value, ChunkedOutput out) {
		out.write(tag);
		out.writeFixed64(Double.doubleToRawLongBits(value));
	}

	/**
	 * Return how many bytes a string takes in UTF-8, as protobuf encodes it: an unpaired
	 * surrogate becomes one {@code ?}, as {@link String#getBytes} makes it.
	 * @param value the string
	 * @return its UTF-8 length
	 */
	static int utf8Length(String value) {
		int length = value.length();
		int bytes = length;
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (c >= 0x80) {
				if (c < 0x800) {
					bytes += 1;
				}
				else if (Character.isHighSurrogate(c) && i + 1 < length
						&& Character.isLowSurrogate(value.charAt(i + 1))) {
					// Two chars, four bytes.
					bytes += 2;
					i++;
				}
				else if (!Character.isSurrogate(c)) {
					bytes += 2;
				}
			}
		}
		return bytes;
	}

	/**
	 * Write a string field whose UTF-8 length is known.
	 * @param tag its tag
	 * @param value the string
	 * @param utf8Length its UTF-8 length
	 * @param out the output
	 */
	static void writeString(int tag, String value, int utf8Length, ChunkedOutput out) {
		out.write(tag);
		out.writeVarint(utf8Length);
		if (utf8Length == value.length()) {
			// ASCII, as trace and span ids are: copied without encoding.
			out.writeAscii(value);
		}
		else {
			byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
			out.write(utf8, 0, utf8.length);
		}
	}

	/**
	 * Encode the fields of a {@code MetricFamily} that come before its metrics.
	 * @param name the family's name
	 * @param help its help text, written even when empty
	 * @param type its {@code MetricType}
	 * @return the encoded fields
	 */
	static byte[] familyMetadata(String name, String help, int type) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(name.length() + help.length() + 8);
		writeBytes(FIELD_1_BYTES, name.getBytes(StandardCharsets.UTF_8), out);
		writeBytes(FIELD_2_BYTES, help.getBytes(StandardCharsets.UTF_8), out);
		out.write(FIELD_3_VARINT);
		writeVarint(type, out);
		return out.toByteArray();
	}

	private static void writeBytes(int tag, byte[] bytes, ByteArrayOutputStream out) {
		out.write(tag);
		writeVarint(bytes.length, out);
		out.writeBytes(bytes);
	}

	private static void writeVarint(long value, ByteArrayOutputStream out) {
		while ((value & ~0x7FL) != 0) {
			out.write((int) ((value & 0x7F) | 0x80));
			value >>>= 7;
		}
		out.write((int) value);
	}

}
