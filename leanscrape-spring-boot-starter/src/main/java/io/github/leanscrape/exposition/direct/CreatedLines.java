package io.github.leanscrape.exposition.direct;

import io.github.leanscrape.exposition.ChunkedOutput;

/**
 * Writes the {@code _created} samples of counters, summaries and histograms that the text
 * formats carry when client_java is told to include created timestamps: OpenMetrics after
 * each series' own lines, text 0.0.4 as a gauge family of its own per family, after every
 * other family of the exposition.
 *
 * @author leanscrape
 */
final class CreatedLines {

	private CreatedLines() {
	}

	/**
	 * Write a series' {@code _created} line, as OpenMetrics has it after the series' own
	 * lines.
	 * @param family the series' family
	 * @param series the series, whose created timestamp is known
	 * @param out the output
	 * @return the lines written: none when the series has no created timestamp
	 */
	static int writeLine(Family family, Series series, ChunkedOutput out) {
		long created = series.created;
		if (created == 0) {
			return 0;
		}
		writeName(family, series, out);
		writeSeconds(created, out);
		out.write('\n');
		return 1;
	}

	/**
	 * Write a family's {@code _created} gauge family as text 0.0.4 has it: metadata, then
	 * a line per series that has a created timestamp; nothing when none has.
	 * @param family the family
	 * @param series its series, in exposition order, whose created timestamps are known
	 * @param inMillis whether timestamps are integer milliseconds (client_java's
	 * {@code prometheusTimestampsInMs}) rather than seconds with three decimals
	 * @param out the output
	 * @return the lines written
	 */
	static int writeFamily(Family family, Series[] series, boolean inMillis, ChunkedOutput out) {
		int lines = 0;
		for (Series each : series) {
			long created = each.created;
			if (created == 0) {
				continue;
			}
			if (lines == 0) {
				out.write(family.createdMetadata);
			}
			writeName(family, each, out);
			if (inMillis) {
				out.writeLong(created);
			}
			else {
				writeSeconds(created, out);
			}
			out.write('\n');
			lines++;
		}
		return lines;
	}

	private static void writeName(Family family, Series series, ChunkedOutput out) {
		out.write(family.createdName);
		out.write(series.labels);
		out.write(' ');
	}

	/**
	 * Write milliseconds since the epoch as seconds with three decimals, with the
	 * arithmetic of client_java's writer.
	 * @param millis the time
	 * @param out the output
	 */
	private static void writeSeconds(long millis, ChunkedOutput out) {
		out.writeLong(millis / 1000L);
		out.write('.');
		long fraction = millis % 1000;
		if (fraction < 100) {
			out.write('0');
		}
		if (fraction < 10) {
			out.write('0');
		}
		out.writeLong(fraction);
	}

}
