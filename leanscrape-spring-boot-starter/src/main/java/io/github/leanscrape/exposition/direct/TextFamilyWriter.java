package io.github.leanscrape.exposition.direct;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import org.jspecify.annotations.Nullable;

/**
 * Writes the sample lines of a direct family from its meters, one meter type at a time,
 * exactly as client_java writes what Micrometer's collector hands it: the series' labels
 * were encoded when the meters were added, so a line is a copy of the sample name and the
 * labels, then the value.
 *
 * @author leanscrape
 */
final class TextFamilyWriter {

	private static final byte[] LE = { 'l', 'e', '=', '"' };

	private static final byte[] QUANTILE = { 'q', 'u', 'a', 'n', 't', 'i', 'l', 'e', '=', '"' };

	private TextFamilyWriter() {
	}

	/**
	 * Write one family: its metadata lines, then its series in order. A full scrape keeps
	 * the family's lines and bytes for the cardinality report.
	 * @param family the family
	 * @param series its series, in exposition order
	 * @param format the format
	 * @param workspace room reused across the families of the scrape
	 * @param out the output
	 * @param full whether this is a full scrape
	 */
	static void writeFamily(Family family, Series[] series, TextFormat format, ScrapeWorkspace workspace,
			ChunkedOutput out, boolean full) {
		long start = out.size();
		out.write(format.metadata(family));
		ExemplarScrape exemplars = (format == TextFormat.OPENMETRICS_100) ? workspace.exemplars : null;
		boolean created = workspace.createdLines && format.writesCreatedInline();
		int lines = switch (family.kind) {
			case COUNTER -> writeCounters(family, series, workspace, out, exemplars, created);
			case GAUGE -> writeGauges(family, series, workspace, out);
			case MAX -> writeMaxima(family, series, out);
			case SUMMARY ->
				writeSummaries(family, series, out, exemplars, workspace.summary, workspace.blocks, created);
			case HISTOGRAM, GAUGE_HISTOGRAM ->
				writeHistograms(family, series, format, out, exemplars, workspace, created);
			case INFO -> writeInfos(family, series, out);
		};
		if (full) {
			family.lastLines = lines;
			family.lastBytes = out.size() - start;
		}
	}

	/**
	 * Write counters a block at a time: first read the block's values, then write its
	 * lines. Each read follows a chain of references (series, meter, adder) into objects
	 * spread over the heap, which usually miss the CPU's caches; in a loop that does only
	 * that, the processor has many chains in flight at once, where between the writes of
	 * a line it had one (at 100,000 series, the reads went from about half of the
	 * scrape's time to a small part of it). The same loop touches each series' encoded
	 * labels ({@link ScrapeWorkspace#touchLabels}), which the writes copy next. A block
	 * read with the same values as in the last body of this kind is copied from it
	 * ({@link BlockCopier}).
	 * @param family the family
	 * @param series its series, in order
	 * @param workspace room for a block of values
	 * @param out the output
	 * @param exemplars how to write exemplars, or {@code null} when none are written
	 * @param created whether each series' {@code _created} line follows its line
	 * @return the lines written
	 */
	private static int writeCounters(Family family, Series[] series, ScrapeWorkspace workspace, ChunkedOutput out,
			@Nullable ExemplarScrape exemplars, boolean created) {
		double[] values = workspace.values;
		BlockCopier blocks = workspace.blocks;
		int lines = 0;
		for (int start = 0; start < series.length; start += values.length) {
			// A large family is cut into segments a block at a time (see
			// ChunkedOutput#endSegmentAt).
			out.endSegmentAt(family.name.hashCode() + start);
			int end = Math.min(series.length, start + values.length);
			for (int i = start; i < end; i++) {
				Series each = series[i];
				values[i - start] = MeterValues.counter(each);
				workspace.touchLabels(each.labels);
			}
			boolean sampled = false;
			if (exemplars != null) {
				// The exemplars too, for the same reason: a chain of references each.
				for (int i = start; i < end; i++) {
					boolean hasSlots = series[i] instanceof ExemplarSeries;
					exemplars.block[i - start] = hasSlots
							? ((ExemplarSeries) series[i]).exemplars.latest(exemplars.now()) : null;
					sampled |= hasSlots;
				}
			}
			// A block with exemplars is always written: its exemplars are not compared.
			BlockCopier copier = sampled ? null : blocks;
			if (copier != null) {
				copier.begin(family, series, start, end, out.size());
			}
			for (int i = start; i < end; i++) {
				double value = values[i - start];
				MeterValues.checkCounter(value);
				if (copier != null) {
					copier.addValue(value);
					if (created) {
						// Twice the values of a block without _created lines: never
						// equal to those of a body of the other text format.
						copier.addValue(series[i].created);
					}
				}
			}
			int blockLines = (copier != null) ? copier.copyIfUnchanged(out) : -1;
			if (blockLines < 0) {
				blockLines = writeCounterLines(family, series, start, end, values, out, exemplars, created);
				if (copier != null) {
					copier.end(out.size(), blockLines);
				}
			}
			lines += blockLines;
		}
		return lines;
	}

	private static int writeCounterLines(Family family, Series[] series, int start, int end, double[] values,
			ChunkedOutput out, @Nullable ExemplarScrape exemplars, boolean created) {
		int lines = end - start;
		for (int i = start; i < end; i++) {
			writeSample(family.sampleName, series[i].labels, out);
			out.writeDouble(values[i - start]);
			if (exemplars != null && series[i] instanceof ExemplarSeries sampled) {
				// Counter lines carry their exemplar, whatever exemplarsOnAllMetricTypes.
				ExemplarWriter.write(exemplars.block[i - start], sampled.exemplars, out);
			}
			out.write('\n');
			if (created) {
				lines += CreatedLines.writeLine(family, series[i], out);
			}
		}
		return lines;
	}

	/**
	 * Write gauges a block at a time, as {@link #writeCounters} does and for the same
	 * reason.
	 * @param family the family
	 * @param series its series, in order
	 * @param workspace room for a block of values
	 * @param out the output
	 * @return the lines written
	 */
	private static int writeGauges(Family family, Series[] series, ScrapeWorkspace workspace, ChunkedOutput out) {
		double[] values = workspace.values;
		for (int start = 0; start < series.length; start += values.length) {
			out.endSegmentAt(family.name.hashCode() + start);
			int end = Math.min(series.length, start + values.length);
			for (int i = start; i < end; i++) {
				Series each = series[i];
				values[i - start] = MeterValues.gauge(each);
				workspace.touchLabels(each.labels);
			}
			BlockCopier copier = workspace.blocks;
			if (copier != null) {
				copier.begin(family, series, start, end, out.size());
				for (int i = start; i < end; i++) {
					copier.addValue(values[i - start]);
				}
				if (copier.copyIfUnchanged(out) >= 0) {
					continue;
				}
			}
			for (int i = start; i < end; i++) {
				writeSample(family.sampleName, series[i].labels, out);
				out.writeDouble(values[i - start]);
				out.write('\n');
			}
			if (copier != null) {
				copier.end(out.size(), end - start);
			}
		}
		return series.length;
	}

	/**
	 * Write the lines of an info metric: the value is always 1, and the gauge's function
	 * is never called, as in Micrometer's collector.
	 * @param family the family
	 * @param series its series, in order
	 * @param out the output
	 * @return the lines written
	 */
	private static int writeInfos(Family family, Series[] series, ChunkedOutput out) {
		for (Series each : series) {
			writeSample(family.sampleName, each.labels, out);
			out.write('1');
			out.write('\n');
		}
		return series.length;
	}

	private static int writeMaxima(Family family, Series[] series, ChunkedOutput out) {
		for (Series each : series) {
			double max = MeterValues.max(each.meter);
			writeSample(family.sampleName, each.labels, out);
			out.writeDouble(max);
			out.write('\n');
		}
		return series.length;
	}

	/**
	 * Write the quantile lines of each series, then {@code _count} and {@code _sum}.
	 * @param family the family
	 * @param series its series, in order
	 * @param out the output
	 * @param exemplars how to write exemplars, or {@code null} when none are written
	 * @param values room for one series' values
	 * @param blocks copies series that did not change, or {@code null}
	 * @param created whether each series' {@code _created} line follows its lines
	 * @return the lines written
	 */
	private static int writeSummaries(Family family, Series[] series, ChunkedOutput out,
			@Nullable ExemplarScrape exemplars, SummaryValues values, @Nullable BlockCopier blocks, boolean created) {
		int lines = 0;
		for (int s = 0; s < series.length; s++) {
			Series each = series[s];
			out.endSegmentAt(family.name.hashCode() + s);
			// Long task timers have no exemplars.
			ExemplarSlots slots = (exemplars != null && exemplars.allMetricTypes()
					&& each instanceof ExemplarSeries sampled) ? sampled.exemplars : null;
			long now = (exemplars != null) ? exemplars.now() : 0;
			values.read(each);
			BlockCopier copier = (slots != null) ? null : blocks;
			if (copier != null) {
				copier.begin(family, series, s, s + 1, out.size());
				copier.addValue(values.quantiles.length);
				for (ValueAtPercentile quantile : values.quantiles) {
					copier.addValue(quantile.percentile());
					copier.addValue(values.value(quantile));
				}
				copier.addValue(values.count);
				copier.addValue(values.sum);
				// What the format decides, recorded with the values: a block is copied
				// into a body of the other text format too (BlockRecord).
				copier.addValue(created ? 1 : 0);
				copier.addValue(created ? each.created : 0);
				int copied = copier.copyIfUnchanged(out);
				if (copied >= 0) {
					lines += copied;
					continue;
				}
			}
			int seriesLines = writeQuantiles(family, each, values, out, slots, now);
			seriesLines += writeCountAndSum(family, each, values.count, values.sum, out, slots, now);
			if (created) {
				seriesLines += CreatedLines.writeLine(family, each, out);
			}
			if (copier != null) {
				copier.end(out.size(), seriesLines);
			}
			lines += seriesLines;
		}
		return lines;
	}

	/**
	 * Write the quantile lines of a summary, each with an exemplar where client_java
	 * writes one: it cycles through the exemplars from the third on, which for
	 * Micrometer's single exemplar means that one on every line.
	 * @param family the family
	 * @param series the series
	 * @param values the series' values, quantiles ascending
	 * @param out the output
	 * @param exemplars the series' exemplars, or {@code null} when its quantile lines
	 * carry none
	 * @param now the scrape's wall-clock time in milliseconds
	 * @return the lines written
	 */
	private static int writeQuantiles(Family family, Series series, SummaryValues values, ChunkedOutput out,
			@Nullable ExemplarSlots exemplars, long now) {
		int exemplarCount = (exemplars != null && values.quantiles.length > 0) ? exemplars.count(now) : 0;
		int exemplarIndex = 1;
		for (ValueAtPercentile value : values.quantiles) {
			out.write(family.sampleName);
			openLabels(series.labels, out);
			out.write(QUANTILE);
			out.writeDouble(value.percentile());
			closeLabels(out);
			out.writeDouble(values.value(value));
			if (exemplars != null && exemplarCount > 0) {
				exemplarIndex = (exemplarIndex + 1) % exemplarCount;
				ExemplarWriter.write(exemplars.get(now, exemplarIndex), exemplars, out);
			}
			out.write('\n');
		}
		return values.quantiles.length;
	}

	/**
	 * Write the bucket lines, then {@code _count} and {@code _sum} (a gauge histogram's
	 * {@code _gcount} and {@code _gsum}) where the format has them.
	 * @param family the family
	 * @param series its series, in order
	 * @param format the format
	 * @param out the output
	 * @param exemplars how to write exemplars, or {@code null} when none are written
	 * @param workspace room for one series' values, and for a gauge histogram's totals
	 * @param created whether each series' {@code _created} line follows its lines
	 * @return the lines written
	 */
	private static int writeHistograms(Family family, Series[] series, TextFormat format, ChunkedOutput out,
			@Nullable ExemplarScrape exemplars, ScrapeWorkspace workspace, boolean created) {
		HistogramValues values = workspace.histogram;
		boolean totalsApart = family.kind == SeriesKind.GAUGE_HISTOGRAM && format.writesGaugeHistogramTotalsApart();
		if (totalsApart) {
			workspace.ensureTotals(series.length);
		}
		int lines = 0;
		for (int s = 0; s < series.length; s++) {
			out.endSegmentAt(family.name.hashCode() + s);
			Series each = series[s];
			ExemplarSlots slots = (exemplars != null && each instanceof ExemplarSeries sampled) ? sampled.exemplars
					: null;
			long now = (exemplars != null) ? exemplars.now() : 0;
			values.read(each);
			// A series with exemplars, or whose totals come after the family, is always
			// written.
			BlockCopier copier = (slots == null && !totalsApart) ? workspace.blocks : null;
			if (copier != null) {
				copier.begin(family, series, s, s + 1, out.size());
				copier.addValue(values.buckets);
				for (int i = 0; i < values.buckets; i++) {
					copier.addValue(values.bounds[i]);
					copier.addValue(values.cumulative[i]);
				}
				copier.addValue(values.count());
				copier.addValue(values.sum);
				// What the format decides, recorded with the values: a block is copied
				// into a body of the other text format too (BlockRecord).
				copier.addValue(format.writesCountAndSum(values.sum) ? 1 : 0);
				copier.addValue(created ? 1 : 0);
				copier.addValue(created ? each.created : 0);
				int copied = copier.copyIfUnchanged(out);
				if (copied >= 0) {
					lines += copied;
					continue;
				}
			}
			int linesBefore = lines;
			double lower = Double.NEGATIVE_INFINITY;
			for (int i = 0; i < values.buckets; i++) {
				double bound = values.bounds[i];
				writeBucket(family, each, bound, values.cumulative[i], out);
				if (slots != null) {
					ExemplarWriter.write(slots.inBucket(now, lower, bound), slots, out);
				}
				out.write('\n');
				lower = bound;
			}
			lines += values.buckets;
			if (totalsApart) {
				// Written after every series' buckets, from the values read now.
				workspace.counts[s] = values.count();
				workspace.sums[s] = values.sum;
			}
			else if (format.writesCountAndSum(values.sum)) {
				ExemplarSlots countSlots = (exemplars != null && exemplars.allMetricTypes()) ? slots : null;
				lines += writeCountAndSum(family, each, values.count(), values.sum, out, countSlots, now);
			}
			if (created) {
				// Whether or not _count and _sum were written.
				lines += CreatedLines.writeLine(family, each, out);
			}
			if (copier != null) {
				copier.end(out.size(), lines - linesBefore);
			}
		}
		if (totalsApart) {
			lines += writeGaugeHistogramTotals(family, series, workspace.counts, workspace.sums, out);
		}
		return lines;
	}

	/**
	 * Write a gauge histogram's {@code _gcount} and {@code _gsum} lines as text 0.0.4 has
	 * client_java write them: two gauge families of their own, every series' count, then
	 * every series' sum.
	 * @param family the family
	 * @param series its series, in order
	 * @param counts each series' count
	 * @param sums each series' sum
	 * @param out the output
	 * @return the lines written
	 */
	private static int writeGaugeHistogramTotals(Family family, Series[] series, long[] counts, double[] sums,
			ChunkedOutput out) {
		out.write(family.gaugeCountMetadata);
		for (int i = 0; i < series.length; i++) {
			writeSample(family.countName, series[i].labels, out);
			out.writeLong(counts[i]);
			out.write('\n');
		}
		int lines = series.length;
		boolean metadataWritten = false;
		for (int i = 0; i < series.length; i++) {
			if (Double.isNaN(sums[i])) {
				continue;
			}
			if (!metadataWritten) {
				out.write(family.gaugeSumMetadata);
				metadataWritten = true;
			}
			writeSample(family.sumName, series[i].labels, out);
			out.writeDouble(sums[i]);
			out.write('\n');
			lines++;
		}
		return lines;
	}

	private static void writeBucket(Family family, Series series, double bound, long cumulative, ChunkedOutput out) {
		out.write(family.bucketName);
		openLabels(series.labels, out);
		out.write(LE);
		out.writeDouble(bound);
		closeLabels(out);
		out.writeLong(cumulative);
	}

	private static int writeCountAndSum(Family family, Series series, long count, double sum, ChunkedOutput out,
			@Nullable ExemplarSlots countExemplars, long now) {
		int lines = 0;
		if (count >= 0) {
			writeSample(family.countName, series.labels, out);
			out.writeLong(count);
			if (countExemplars != null) {
				ExemplarWriter.write(countExemplars.latest(now), countExemplars, out);
			}
			out.write('\n');
			lines++;
		}
		if (!Double.isNaN(sum)) {
			writeSample(family.sumName, series.labels, out);
			out.writeDouble(sum);
			out.write('\n');
			lines++;
		}
		return lines;
	}

	private static void writeSample(byte[] name, byte[] labels, ChunkedOutput out) {
		out.write(name);
		out.write(labels);
		out.write(' ');
	}

	/**
	 * Write the labels up to where an extra label ({@code le}, {@code quantile}) goes:
	 * all but the closing brace, and a comma; or just the opening brace.
	 * @param labels the series' encoded labels
	 * @param out the output
	 */
	private static void openLabels(byte[] labels, ChunkedOutput out) {
		if (labels.length == 0) {
			out.write('{');
		}
		else {
			out.write(labels, 0, labels.length - 1);
			out.write(',');
		}
	}

	private static void closeLabels(ChunkedOutput out) {
		out.write('"');
		out.write('}');
		out.write(' ');
	}

}
