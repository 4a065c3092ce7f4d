package io.github.leanscrape.exposition.direct;

/**
 * Encodes a series' labels as protobuf {@code LabelPair} fields, read from the bytes the
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
	 * Encode the labels as {@code Metric.label} fields into an array, in one pass.
	 * @param text the labels as the text formats write them, or no bytes
	 * @param into where to encode them, at least {@link #maxSize(byte[])} long
	 * @return the bytes encoded
	 */
	static int encode(byte[] text, byte[] into) {
		int length = 0;
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
			into[length++] = ProtobufWire.FIELD_1_BYTES;
			length = ProtobufWire.putVarint(ProtobufWire.labelPairSize(nameLength, valueLength), into, length);
			into[length++] = ProtobufWire.FIELD_1_BYTES;
			length = ProtobufWire.putVarint(nameLength, into, length);
			System.arraycopy(text, nameStart, into, length, nameLength);
			length += nameLength;
			into[length++] = ProtobufWire.FIELD_2_BYTES;
			length = ProtobufWire.putVarint(valueLength, into, length);
			if (escapes == 0) {
				System.arraycopy(text, valueStart, into, length, valueLength);
				length += valueLength;
			}
			else {
				length = putUnescaped(text, valueStart, valueEnd, into, length);
			}
			position = valueEnd + 2;
		}
		return length;
	}

	/**
	 * Return the most bytes {@link #encode} may write for some labels: each pair's three
	 * tags and lengths take at most twelve bytes where its text takes four.
	 * @param text the labels as the text formats write them
	 * @return an upper bound of their encoded size
	 */
	static int maxSize(byte[] text) {
		return 3 * text.length + 16;
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
	 * @param into where to put the value
	 * @param at where in it
	 * @return the position after the value
	 */
	private static int putUnescaped(byte[] text, int start, int end, byte[] into, int at) {
		for (int i = start; i < end; i++) {
			byte b = text[i];
			if (b == '\\') {
				i++;
				into[at++] = (text[i] == 'n') ? (byte) '\n' : text[i];
			}
			else {
				into[at++] = b;
			}
		}
		return at;
	}

}
