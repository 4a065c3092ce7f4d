package io.github.leanscrape.exposition.direct;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.NamingConvention;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import org.jspecify.annotations.Nullable;

/**
 * Turns a meter's tags into the label bytes and the sort key that client_java would
 * derive from them: label names through the registry's naming convention, values as they
 * are, sorted by label name, values escaped ({@code \\}, {@code "}, newline), UTF-8.
 * <p>
 * Runs when a meter is added, never on the scrape path.
 *
 * @author leanscrape
 */
final class LabelEncoder {

	private final NamingConvention namingConvention;

	private final ConcurrentMap<String, String> labelNames = new ConcurrentHashMap<>();

	LabelEncoder(NamingConvention namingConvention) {
		this.namingConvention = namingConvention;
	}

	/**
	 * Return the sorted labels of a meter id, or {@code null} when they cannot be written
	 * directly with the same bytes (a label name that is not a legacy Prometheus name and
	 * so would be quoted, two tags mapping to one label name, or a reserved name).
	 * @param id the meter id
	 * @param reserved a label name the family adds itself ({@code le}, {@code quantile}),
	 * or {@code null}
	 * @return the labels or {@code null}
	 */
	@Nullable SortKey sortKey(Meter.Id id, @Nullable String reserved) {
		List<String[]> pairs = new ArrayList<>();
		for (Tag tag : id.getTagsAsIterable()) {
			String name = labelName(tag.getKey());
			if (!PrometheusNaming.isValidLegacyLabelName(name) || name.equals(reserved)) {
				return null;
			}
			pairs.add(new String[] { name, tag.getValue() });
		}
		pairs.sort((a, b) -> a[0].compareTo(b[0]));
		String[] names = new String[pairs.size()];
		String[] values = new String[pairs.size()];
		for (int i = 0; i < names.length; i++) {
			names[i] = pairs.get(i)[0];
			values[i] = pairs.get(i)[1];
			if (i > 0 && names[i].equals(names[i - 1])) {
				return null;
			}
		}
		return new SortKey(names, values);
	}

	/**
	 * Return why {@link #sortKey} refused the labels of a meter id.
	 * @param id the meter id, whose labels it refused
	 * @param reserved the label name the family adds itself, or {@code null}
	 * @return the reason: a label name client_java would escape, a reserved name, or two
	 * tags that become one label
	 */
	FallbackReason refusal(Meter.Id id, @Nullable String reserved) {
		for (Tag tag : id.getTagsAsIterable()) {
			String name = labelName(tag.getKey());
			if (!PrometheusNaming.isValidLegacyLabelName(name)) {
				return FallbackReason.LABEL_NAME_ESCAPED;
			}
			if (name.equals(reserved)) {
				return FallbackReason.RESERVED_LABEL;
			}
		}
		return FallbackReason.TAG_KEYS_COLLIDE;
	}

	private String labelName(String key) {
		String name = this.labelNames.get(key);
		if (name == null) {
			name = this.namingConvention.tagKey(key);
			if (this.labelNames.size() < 10_000) {
				this.labelNames.put(key, name);
			}
		}
		return name;
	}

	/**
	 * Encode labels as they follow a sample name: {@code {a="x",b="y"}}, or nothing.
	 * @param key the sorted labels
	 * @return the bytes
	 */
	static byte[] encode(SortKey key) {
		if (key.names.length == 0) {
			return new byte[0];
		}
		ByteArrayOutputStream out = new ByteArrayOutputStream(64);
		out.write('{');
		for (int i = 0; i < key.names.length; i++) {
			if (i > 0) {
				out.write(',');
			}
			out.writeBytes(key.names[i].getBytes(StandardCharsets.US_ASCII));
			out.write('=');
			out.write('"');
			out.writeBytes(escape(key.values[i]).getBytes(StandardCharsets.UTF_8));
			out.write('"');
		}
		out.write('}');
		return out.toByteArray();
	}

	/**
	 * Escape a label value or OpenMetrics help text: backslash, double quote, newline.
	 * @param value the text
	 * @return the escaped text
	 */
	static String escape(String value) {
		if (value.indexOf('\\') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0) {
			return value;
		}
		StringBuilder escaped = new StringBuilder(value.length() + 8);
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			switch (c) {
				case '\\' -> escaped.append("\\\\");
				case '"' -> escaped.append("\\\"");
				case '\n' -> escaped.append("\\n");
				default -> escaped.append(c);
			}
		}
		return escaped.toString();
	}

	/**
	 * Labels sorted by name, compared as client_java's {@code Labels} compare: names
	 * first, then values.
	 */
	static final class SortKey implements Comparable<SortKey> {

		final String[] names;

		final String[] values;

		SortKey(String[] names, String[] values) {
			this.names = names;
			this.values = values;
		}

		/**
		 * Return these labels with one more, in its place by name.
		 * @param name the label's name, which none of these has
		 * @param value its value
		 * @return the labels
		 */
		SortKey with(String name, String value) {
			int at = 0;
			while (at < this.names.length && this.names[at].compareTo(name) < 0) {
				at++;
			}
			String[] names = new String[this.names.length + 1];
			String[] values = new String[this.values.length + 1];
			System.arraycopy(this.names, 0, names, 0, at);
			System.arraycopy(this.values, 0, values, 0, at);
			names[at] = name;
			values[at] = value;
			System.arraycopy(this.names, at, names, at + 1, this.names.length - at);
			System.arraycopy(this.values, at, values, at + 1, this.values.length - at);
			return new SortKey(names, values);
		}

		@Override
		public int compareTo(SortKey other) {
			int result = compare(this.names, other.names);
			return (result != 0) ? result : compare(this.values, other.values);
		}

		private static int compare(String[] left, String[] right) {
			int common = Math.min(left.length, right.length);
			for (int i = 0; i < common; i++) {
				int result = left[i].compareTo(right[i]);
				if (result != 0) {
					return result;
				}
			}
			return Integer.compare(left.length, right.length);
		}

	}

}
