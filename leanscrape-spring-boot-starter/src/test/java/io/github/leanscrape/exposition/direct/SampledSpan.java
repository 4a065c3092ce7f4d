package io.github.leanscrape.exposition.direct;

import io.prometheus.metrics.tracer.common.SpanContext;

/**
 * A span that is always sampled, as a tracer's for a sampled request, so that every meter
 * keeps exemplars.
 */
final class SampledSpan implements SpanContext {

	@Override
	public String getCurrentTraceId() {
		return "0af7651916cd43dd8448eb211c80319c";
	}

	@Override
	public String getCurrentSpanId() {
		return "b7ad6b7169203331";
	}

	@Override
	public boolean isCurrentSpanSampled() {
		return true;
	}

	@Override
	public void markCurrentSpanAsExemplar() {
	}

}
