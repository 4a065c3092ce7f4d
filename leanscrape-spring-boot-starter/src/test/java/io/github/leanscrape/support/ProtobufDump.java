package io.github.leanscrape.support;

/**
 * Prints length-delimited protobuf messages as readable text, field by field, so that two
 * bodies that differ show where: a length-delimited field that parses as a message is
 * shown as one, otherwise as a string; a fixed64 as a double.
 */
public final class ProtobufDump {

	private ProtobufDump() {
	}

	/**
	 * Print a body of length-delimited messages.
	 * @param bytes the body
	 * @return one block per message
	 */
	public static String delimited(byte[] bytes) {
		return delimited(bytes, false);
	}

	/**
	 * Print a body of length-delimited messages without its numbers (values and sizes),
	 * so that two scrapes of meters that moved in between can be compared.
	 * @param bytes the body
	 * @return one block per message
	 */
	public static String withoutValues(byte[] bytes) {
		return delimited(bytes, true);
	}

	private static String delimited(byte[] bytes, boolean masked) {
		StringBuilder text = new StringBuilder();
		int[] position = { 0 };
		while (position[0] < bytes.length) {
			long size = varint(bytes, position);
			int start = position[0];
			text.append("message").append(masked ? "" : " (" + size + " bytes)").append('\n');
			if (start + size > bytes.length || !message(bytes, start, (int) (start + size), 1, masked, text)) {
				text.append("  unreadable\n");
				break;
			}
			position[0] = (int) (start + size);
		}
		return text.toString();
	}

	private static boolean message(byte[] bytes, int start, int end, int depth, boolean masked, StringBuilder text) {
		int[] position = { start };
		StringBuilder fields = new StringBuilder();
		while (position[0] < end) {
			long tag = varint(bytes, position);
			if (tag < 0 || position[0] > end) {
				return false;
			}
			int field = (int) (tag >>> 3);
			int type = (int) (tag & 7);
			fields.append("  ".repeat(depth)).append(field).append(": ");
			switch (type) {
				case 0 -> {
					long value = varint(bytes, position);
					fields.append(masked ? "V" : String.valueOf(value)).append('\n');
				}
				case 1 -> {
					if (position[0] + 8 > end) {
						return false;
					}
					long bits = 0;
					for (int i = 7; i >= 0; i--) {
						bits = (bits << 8) | (bytes[position[0] + i] & 0xFF);
					}
					position[0] += 8;
					fields.append(masked ? "V" : String.valueOf(Double.longBitsToDouble(bits))).append('\n');
				}
				case 2 -> {
					long length = varint(bytes, position);
					if (length < 0 || position[0] + length > end) {
						return false;
					}
					int from = position[0];
					int to = (int) (from + length);
					StringBuilder nested = new StringBuilder();
					if (length > 0 && message(bytes, from, to, depth + 1, masked, nested)) {
						fields.append("{\n").append(nested).append("  ".repeat(depth)).append("}\n");
					}
					else {
						fields.append('"')
							.append(new String(bytes, from, to - from, java.nio.charset.StandardCharsets.UTF_8))
							.append("\"\n");
					}
					position[0] = to;
				}
				default -> {
					return false;
				}
			}
		}
		text.append(fields);
		return position[0] == end;
	}

	private static long varint(byte[] bytes, int[] position) {
		long value = 0;
		for (int shift = 0; shift < 64; shift += 7) {
			if (position[0] >= bytes.length) {
				return -1;
			}
			byte b = bytes[position[0]++];
			value |= (long) (b & 0x7F) << shift;
			if ((b & 0x80) == 0) {
				return value;
			}
		}
		return -1;
	}

}
