package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.prometheus.metrics.model.snapshots.Exemplar;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import org.jspecify.annotations.Nullable;

/**
 * Writes an exemplar at the end of an OpenMetrics sample line, byte for byte as
 * client_java's OpenMetrics writer does, without allocating.
 *
 * @author leanscrape
 */
final class ExemplarWriter {

	private static final byte[] EXEMPLAR = { ' ', '#', ' ', '{' };

	private ExemplarWriter() {
	}

	/**
	 * Write an exemplar at the end of a sample line, as client_java's OpenMetrics writer
	 * does: {@code # {span_id="…",trace_id="…"} value seconds.millis}.
	 * @param exemplar the exemplar, or {@code null} for none
	 * @param slots where it came from, which knows how its value is written
	 * @param out the output
	 */
	static void write(@Nullable Exemplar exemplar, ExemplarSlots slots, ChunkedOutput out) {
		if (exemplar == null) {
			return;
		}
		out.write(EXEMPLAR);
		Labels labels = exemplar.getLabels();
		for (int i = 0; i < labels.size(); i++) {
			if (i > 0) {
				out.write(',');
			}
			String name = labels.getName(i);
			if (PrometheusNaming.isValidLegacyLabelName(name)) {
				out.writeAscii(name);
			}
			else {
				out.write('"');
				writeEscaped(name, out);
				out.write('"');
			}
			out.write('=');
			out.write('"');
			writeEscaped(labels.getValue(i), out);
			out.write('"');
		}
		out.write('}');
		out.write(' ');
		out.writeDouble(slots.value(exemplar));
		if (exemplar.hasTimestamp()) {
			long millis = exemplar.getTimestampMillis();
			out.write(' ');
			out.writeLong(millis / 1000);
			out.write('.');
			int fraction = (int) (millis % 1000);
			out.write('0' + fraction / 100);
			out.write('0' + (fraction / 10) % 10);
			out.write('0' + fraction % 10);
		}
	}

	/**
	 * Write a string as client_java escapes label values ({@code \\}, {@code \"},
	 * {@code \n}), in UTF-8, without making a copy of it.
	 * @param value the string
	 * @param out the output
	 */
	private static void writeEscaped(String value, ChunkedOutput out) {
		int length = value.length();
		if (isPlainAscii(value, length)) {
			// Trace and span ids: copied in one go.
			out.writeAscii(value);
			return;
		}
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (c == '\\' || c == '"') {
				out.write('\\');
				out.write(c);
			}
			else if (c == '\n') {
				out.write('\\');
				out.write('n');
			}
			else if (c < 0x80) {
				out.write(c);
			}
			else {
				// Rare in exemplar labels (trace and span ids are hex): encode this code
				// point on its own.
				int end = (Character.isHighSurrogate(c) && i + 1 < length) ? i + 2 : i + 1;
				byte[] utf8 = value.substring(i, end).getBytes(StandardCharsets.UTF_8);
				out.write(utf8, 0, utf8.length);
				i = end - 1;
			}
		}
	}

	private static boolean isPlainAscii(String value, int length) {
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (c >= 0x80 || c == '\\' || c == '"' || c == '\n') {
				return false;
			}
		}
		return true;
	}

}
