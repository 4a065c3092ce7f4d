package io.github.leanscrape.exposition.direct;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.prometheus.metrics.model.snapshots.Exemplar;
import io.prometheus.metrics.model.snapshots.Labels;

/**
 * Writes an exemplar as a protobuf {@code Exemplar} message, as client_java's protobuf
 * writer does: its labels, its value, and its timestamp when it has one.
 *
 * @author leanscrape
 */
final class ProtobufExemplars {

	private ProtobufExemplars() {
	}

	/**
	 * Return the size of an exemplar's message.
	 * @param exemplar the exemplar
	 * @return its size
	 */
	static int size(Exemplar exemplar) {
		Labels labels = exemplar.getLabels();
		int size = ProtobufWire.DOUBLE_FIELD;
		for (int i = 0; i < labels.size(); i++) {
			size += ProtobufWire.messageField(ProtobufWire.labelPairSize(ProtobufWire.utf8Length(labels.getName(i)),
					ProtobufWire.utf8Length(labels.getValue(i))));
		}
		if (exemplar.hasTimestamp()) {
			size += ProtobufWire.messageField(ProtobufWire.timestampSize(exemplar.getTimestampMillis()));
		}
		return size;
	}

	/**
	 * Write the fields of an exemplar's message.
	 * @param exemplar the exemplar
	 * @param slots where it came from, which knows how its value is written
	 * @param out the output
	 */
	static void write(Exemplar exemplar, ExemplarSlots slots, ChunkedOutput out) {
		Labels labels = exemplar.getLabels();
		for (int i = 0; i < labels.size(); i++) {
			String name = labels.getName(i);
			String value = labels.getValue(i);
			int nameLength = ProtobufWire.utf8Length(name);
			int valueLength = ProtobufWire.utf8Length(value);
			out.write(ProtobufWire.FIELD_1_BYTES);
			out.writeVarint(ProtobufWire.labelPairSize(nameLength, valueLength));
			ProtobufWire.writeString(ProtobufWire.FIELD_1_BYTES, name, nameLength, out);
			ProtobufWire.writeString(ProtobufWire.FIELD_2_BYTES, value, valueLength, out);
		}
		ProtobufWire.writeDouble(ProtobufWire.FIELD_2_DOUBLE, slots.value(exemplar), out);
		if (exemplar.hasTimestamp()) {
			long millis = exemplar.getTimestampMillis();
			out.write(ProtobufWire.FIELD_3_BYTES);
			out.writeVarint(ProtobufWire.timestampSize(millis));
			ProtobufWire.writeTimestamp(millis, out);
		}
	}

}
