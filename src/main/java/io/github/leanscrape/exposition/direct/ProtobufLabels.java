package io.github.leanscrape.exposition.direct;

import io.github.leanscrape.exposition.ChunkedOutput;

/**
 * Writes a series' labels as protobuf {@code LabelPair} fields, read from the bytes the
 * text formats write ({@code {a="x",b="y\"z"}}): names and values are already sorted and
 * in UTF-8 there, and a value is only unescaped on the way. Reading them at each scrape
 * costs a pass over bytes that are copied anyway, where keeping a second encoding would
 * cost each series its memory for as long as it lives.
 *
 * @author leanscrape
 */
final class ProtobufLabels {

	private ProtobufLabels() {
	}

	/**
	 * Return how many bytes the labels take as {@code Metric.label} fields.
	 * @param text the labels as the text formats write them, or no bytes
	 * @return their size
	 */
	static int size(byte[] text) {
		int size = 0;
		int position = 1;
		while (position < text.length) {
			int nameStart = position;
			int nameEnd = nameEnd(text, nameStart);
			int valueStart = nameEnd + 2;
			long scanned = scanValue(text, valueStart);
			int valueEnd = (int) scanned;
			int escapes = (int) (scanned >>> 32);
			size += ProtobufWire
				.messageField(ProtobufWire.labelPairSize(nameEnd - nameStart, valueEnd - valueStart - escapes));
			// Past the closing quote and the comma or brace after it.
			position = valueEnd + 2;
		}
		return size;
	}

	/**
	 * Write the labels as {@code Metric.label} fields.
	 * @param text the labels as the text formats write them, or no bytes
	 * @param out the output
	 */
	static void write(byte[] text, ChunkedOutput out) {
		int position = 1;
		while (position < text.length) {
			int nameStart = position;
			int nameEnd = nameEnd(text, nameStart);
			int valueStart = nameEnd + 2;
			long scanned = scanValue(text, valueStart);
			int valueEnd = (int) scanned;
			int escapes = (int) (scanned >>> 32);
			int nameLength = nameEnd - nameStart;
			int valueLength = valueEnd - valueStart - escapes;
			out.write(ProtobufWire.FIELD_1_BYTES);
			out.writeVarint(ProtobufWire.labelPairSize(nameLength, valueLength));
			out.write(ProtobufWire.FIELD_1_BYTES);
			out.writeVarint(nameLength);
			out.write(text, nameStart, nameLength);
			out.write(ProtobufWire.FIELD_2_BYTES);
			out.writeVarint(valueLength);
			if (escapes == 0) {
				out.write(text, valueStart, valueLength);
			}
			else {
				writeUnescaped(text, valueStart, valueEnd, out);
			}
			position = valueEnd + 2;
		}
	}

	private static int nameEnd(byte[] text, int from) {
		int end = from;
		while (text[end] != '=') {
			end++;
		}
		return end;
	}

	/**
	 * Find the closing quote of an escaped value, counting the escapes on the way: a
	 * quote inside the value is always escaped.
	 * @param text the label bytes
	 * @param start where the value starts
	 * @return the position of the closing quote, and the escapes in the upper 32 bits
	 */
	private static long scanValue(byte[] text, int start) {
		long escapes = 0;
		int end = start;
		while (text[end] != '"') {
			if (text[end] == '\\') {
				escapes++;
				end++;
			}
			end++;
		}
		return (escapes << 32) | end;
	}

	/**
	 * Undo what {@link LabelEncoder#escape} did: {@code \\}, {@code \"} and {@code \n}.
	 * @param text the label bytes
	 * @param start where the value starts
	 * @param end where its closing quote is
	 * @param out the output
	 */
	private static void writeUnescaped(byte[] text, int start, int end, ChunkedOutput out) {
		for (int i = start; i < end; i++) {
			byte b = text[i];
			if (b == '\\') {
				i++;
				out.write((text[i] == 'n') ? '\n' : text[i]);
			}
			else {
				out.write(b);
			}
		}
	}

}
