package io.github.leanscrape.web;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;
import org.springframework.util.StringUtils;

/**
 * Chooses the scrape format for an {@code Accept} header, honouring q-values (RFC 9110).
 * <p>
 * Each format gets the q-value of its most specific matching range; the highest above
 * zero wins, then the more specific range, then Spring Boot's order: protobuf,
 * OpenMetrics, text (a bare {@code *}{@code /*} means text). Parameters are ignored when
 * choosing, but, as in Spring's request mapping, one range must match a format with its
 * parameters. A header that cannot be parsed gives {@code null}: the request is left as
 * it is.
 *
 * @author leanscrape
 */
public final class FormatNegotiator {

	private static final PrometheusOutputFormat[] FORMATS = PrometheusOutputFormat.values();

	private static final int NO_MATCH = -1;

	private FormatNegotiator() {
	}

	/**
	 * Return the result of negotiation for the values of the {@code Accept} header.
	 * @param acceptHeaders the header values, possibly empty
	 * @return the negotiation result
	 */
	public static Result negotiate(@Nullable List<String> acceptHeaders) {
		if (acceptHeaders == null || acceptHeaders.isEmpty()) {
			return new Result(defaultFormat(), true);
		}
		double[] quality = new double[FORMATS.length];
		int[] specificity = new int[FORMATS.length];
		Arrays.fill(specificity, NO_MATCH);
		boolean any = false;
		boolean mapped = false;
		try {
			for (String header : acceptHeaders) {
				for (String token : MimeTypeUtils.tokenize(header)) {
					if (token.isBlank()) {
						continue;
					}
					MimeType range = MimeTypeUtils.parseMimeType(token);
					any = true;
					double q = quality(range);
					int rangeSpecificity = specificity(range);
					for (int i = 0; i < FORMATS.length; i++) {
						MimeType produced = FORMATS[i].getProducedMimeType();
						if (!matches(range, produced)) {
							continue;
						}
						mapped |= range.isWildcardType() || parametersAgree(range, produced);
						if (isMoreSpecificOrBetter(rangeSpecificity, q, specificity[i], quality[i])) {
							specificity[i] = rangeSpecificity;
							quality[i] = q;
						}
					}
				}
			}
		}
		catch (IllegalArgumentException ex) {
			return new Result(null, false);
		}
		if (!any) {
			return new Result(defaultFormat(), true);
		}
		if (!mapped) {
			// Spring Boot's endpoint is not even mapped for this request: 406.
			return new Result(null, true);
		}
		PrometheusOutputFormat best = null;
		for (int i = 0; i < FORMATS.length; i++) {
			if (specificity[i] == NO_MATCH || quality[i] <= 0) {
				continue;
			}
			if (best == null || isPreferred(i, best.ordinal(), quality, specificity)) {
				best = FORMATS[i];
			}
		}
		return new Result(best, true);
	}

	private static boolean isMoreSpecificOrBetter(int rangeSpecificity, double q, int currentSpecificity,
			double currentQuality) {
		if (rangeSpecificity != currentSpecificity) {
			return rangeSpecificity > currentSpecificity;
		}
		// Two ranges of the same specificity match: the more generous one counts.
		return q > currentQuality;
	}

	private static boolean isPreferred(int candidate, int current, double[] quality, int[] specificity) {
		if (quality[candidate] != quality[current]) {
			return quality[candidate] > quality[current];
		}
		if (specificity[candidate] != specificity[current]) {
			return specificity[candidate] > specificity[current];
		}
		if (specificity[candidate] == 0) {
			// Only */* matched both: that is a request for the default format.
			return FORMATS[candidate].isDefault();
		}
		// Spring Boot prefers the format declared last: protobuf, OpenMetrics, text.
		return candidate > current;
	}

	private static boolean matches(MimeType range, MimeType produced) {
		if (range.isWildcardType()) {
			return true;
		}
		if (!range.getType().equalsIgnoreCase(produced.getType())) {
			return false;
		}
		return range.isWildcardSubtype() || range.getSubtype().equalsIgnoreCase(produced.getSubtype());
	}

	private static boolean parametersAgree(MimeType range, MimeType produced) {
		for (Map.Entry<String, String> parameter : produced.getParameters().entrySet()) {
			String requested = range.getParameter(parameter.getKey());
			if (StringUtils.hasText(requested) && !requested.equalsIgnoreCase(parameter.getValue())) {
				return false;
			}
		}
		return true;
	}

	private static int specificity(MimeType range) {
		if (range.isWildcardType()) {
			return 0;
		}
		return range.isWildcardSubtype() ? 1 : 2;
	}

	private static double quality(MimeType range) {
		String q = range.getParameter("q");
		if (q == null) {
			return 1.0;
		}
		double value = Double.parseDouble(q.trim());
		if (!(value >= 0 && value <= 1)) {
			throw new IllegalArgumentException("Invalid q-value " + q);
		}
		return value;
	}

	private static PrometheusOutputFormat defaultFormat() {
		for (PrometheusOutputFormat format : FORMATS) {
			if (format.isDefault()) {
				return format;
			}
		}
		return FORMATS[0];
	}

	/**
	 * The outcome of negotiation.
	 *
	 * @param format the chosen format, or {@code null} when none is acceptable or the
	 * header could not be parsed
	 * @param parsed whether the header could be parsed
	 */
	public record Result(@Nullable PrometheusOutputFormat format, boolean parsed) {

		/**
		 * Return whether the request should be answered 406 Not Acceptable.
		 * @return {@code true} when the header was understood and allows no format
		 */
		public boolean notAcceptable() {
			return this.parsed && this.format == null;
		}

	}

}
