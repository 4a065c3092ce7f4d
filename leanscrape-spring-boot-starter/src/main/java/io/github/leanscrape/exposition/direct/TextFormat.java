package io.github.leanscrape.exposition.direct;

import io.github.leanscrape.exposition.ChunkedOutput;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * The two text formats the direct path writes, and the few bytes in which they differ:
 * each family's metadata lines, how a histogram without a sum ends, and the end of the
 * exposition.
 *
 * @author leanscrape
 */
enum TextFormat {

	/**
	 * Text 0.0.4: {@code # HELP} then {@code # TYPE}, nothing at the end.
	 */
	TEXT_004 {

		@Override
		byte[] metadata(Family family) {
			return family.textMetadata;
		}

		@Override
		boolean writesCountAndSum(double sum) {
			return true;
		}

		@Override
		boolean writesGaugeHistogramTotalsApart() {
			return true;
		}

		@Override
		boolean writesCreatedInline() {
			return false;
		}

		@Override
		void end(ChunkedOutput out) {
		}

	},

	/**
	 * OpenMetrics 1.0.0: {@code # TYPE} then {@code # HELP}, {@code # EOF} at the end.
	 */
	OPENMETRICS_100 {

		@Override
		byte[] metadata(Family family) {
			return family.openMetricsMetadata;
		}

		@Override
		boolean writesCountAndSum(double sum) {
			// OpenMetrics writes a histogram's _count and _sum together or not at all.
			return !Double.isNaN(sum);
		}

		@Override
		boolean writesGaugeHistogramTotalsApart() {
			return false;
		}

		@Override
		boolean writesCreatedInline() {
			return true;
		}

		@Override
		void end(ChunkedOutput out) {
			out.write(EOF);
		}

	};

	/**
	 * The last line of an OpenMetrics exposition, which client_java also ends each of its
	 * OpenMetrics outputs with.
	 */
	static final byte[] EOF = { '#', ' ', 'E', 'O', 'F', '\n' };

	/**
	 * Return the metadata lines of a family in this format.
	 * @param family the family
	 * @return its encoded metadata lines
	 */
	abstract byte[] metadata(Family family);

	/**
	 * Return whether a histogram with this sum gets its {@code _count} and {@code _sum}
	 * lines.
	 * @param sum the histogram's sum
	 * @return {@code true} when they are written
	 */
	abstract boolean writesCountAndSum(double sum);

	/**
	 * Return whether a gauge histogram's {@code _gcount} and {@code _gsum} go into gauge
	 * families of their own after the histogram, rather than after each series' buckets.
	 * @return {@code true} in text 0.0.4, which has no gauge histograms
	 */
	abstract boolean writesGaugeHistogramTotalsApart();

	/**
	 * Return whether a series' {@code _created} line follows its own lines, rather than
	 * going into a gauge family of its own after every other family.
	 * @return {@code true} in OpenMetrics
	 */
	abstract boolean writesCreatedInline();

	/**
	 * Write what ends an exposition in this format.
	 * @param out the output
	 */
	abstract void end(ChunkedOutput out);

	/**
	 * Return the text format for a scrape format.
	 * @param format the scrape format
	 * @return the text format, or {@code null} for protobuf
	 */
	static @Nullable TextFormat of(PrometheusOutputFormat format) {
		return switch (format) {
			case CONTENT_TYPE_004 -> TEXT_004;
			case CONTENT_TYPE_OPENMETRICS_100 -> OPENMETRICS_100;
			case CONTENT_TYPE_PROTOBUF -> null;
		};
	}

}
