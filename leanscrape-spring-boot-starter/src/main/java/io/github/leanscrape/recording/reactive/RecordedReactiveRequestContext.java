package io.github.leanscrape.recording.reactive;

import java.util.Map;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.http.server.reactive.observation.ServerRequestObservationConvention;

/**
 * The context of a Spring WebFlux request that {@link ServerRequestRecordingWebHandler}
 * records without Micrometer's observation: what {@code RecordedRequestContext} is to a
 * Spring MVC request.
 * <p>
 * Its convention's key values are derived the first time anything reads or removes them:
 * during the request as at the start (method, path, status then, no path pattern, no
 * error), under those added since; once recorded, as an observation's stop leaves them,
 * with the contextual name, from the context as first read after the request.
 *
 * @author leanscrape
 */
final class RecordedReactiveRequestContext extends ServerRequestObservationContext {

	private final ServerRequestObservationConvention convention;

	/** The response's status when the request started; set before any read. */
	private @Nullable HttpStatusCode statusAtStart;

	/**
	 * Volatile, as the fields below: a request's context may be read and written on any
	 * thread its signals arrive on.
	 */
	private volatile boolean startKeyValuesAdded;

	/**
	 * Whether any low-cardinality key value was added: by anyone, or those of the start.
	 */
	private volatile boolean lowCardinalityAdded;

	/** The convention at the end, once the request is recorded. */
	private volatile @Nullable ServerRequestObservationConvention endConvention;

	private volatile boolean endKeyValuesAdded;

	RecordedReactiveRequestContext(ServerHttpRequest request, ServerHttpResponse response,
			Map<String, Object> attributes, ServerRequestObservationConvention convention) {
		super(request, response, attributes);
		this.convention = convention;
	}

	/**
	 * Mark the request started, as an observation's start would: name it and remember the
	 * status its key values at the start read.
	 * @param name the observation's name
	 * @param response the response
	 */
	void start(String name, ServerHttpResponse response) {
		setName(name);
		this.statusAtStart = response.getStatusCode();
	}

	/**
	 * Return whether the context holds low-cardinality key values: then they decide the
	 * request's tags with the convention's, as an observation's context does.
	 * @return {@code false} when nothing added any
	 */
	boolean hasLowCardinalityKeyValues() {
		return this.lowCardinalityAdded;
	}

	/**
	 * Mark the request recorded: from now on the key values read are those an
	 * observation's stop leaves.
	 * @param convention the convention that decided the request's tags
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	void stop(ObservationConvention<? extends Observation.Context> convention) {
		this.endConvention = (ServerRequestObservationConvention) (ObservationConvention) convention;
	}

	@Override
	public @Nullable String getContextualName() {
		addKeyValues();
		return super.getContextualName();
	}

	@Override
	public Observation.Context addLowCardinalityKeyValue(KeyValue keyValue) {
		this.lowCardinalityAdded = true;
		return super.addLowCardinalityKeyValue(keyValue);
	}

	@Override
	public Observation.Context removeLowCardinalityKeyValue(String keyName) {
		addKeyValues();
		return super.removeLowCardinalityKeyValue(keyName);
	}

	@Override
	public Observation.Context removeHighCardinalityKeyValue(String keyName) {
		addKeyValues();
		return super.removeHighCardinalityKeyValue(keyName);
	}

	@Override
	public Observation.Context removeLowCardinalityKeyValues(String... keyNames) {
		addKeyValues();
		return super.removeLowCardinalityKeyValues(keyNames);
	}

	@Override
	public Observation.Context removeHighCardinalityKeyValues(String... keyNames) {
		addKeyValues();
		return super.removeHighCardinalityKeyValues(keyNames);
	}

	@Override
	public KeyValues getLowCardinalityKeyValues() {
		addKeyValues();
		return super.getLowCardinalityKeyValues();
	}

	@Override
	public KeyValues getHighCardinalityKeyValues() {
		addKeyValues();
		return super.getHighCardinalityKeyValues();
	}

	@Override
	public @Nullable KeyValue getLowCardinalityKeyValue(String key) {
		addKeyValues();
		return super.getLowCardinalityKeyValue(key);
	}

	@Override
	public @Nullable KeyValue getHighCardinalityKeyValue(String key) {
		addKeyValues();
		return super.getHighCardinalityKeyValue(key);
	}

	@Override
	public KeyValues getAllKeyValues() {
		addKeyValues();
		return super.getAllKeyValues();
	}

	/**
	 * Add the convention's key values an observation's context would hold by now: those
	 * of the start during the request, those of the end after it. Each is derived once.
	 */
	private void addKeyValues() {
		ServerRequestObservationConvention end = this.endConvention;
		if (end != null) {
			if (!this.endKeyValuesAdded) {
				synchronized (this) {
					if (!this.endKeyValuesAdded) {
						addEndKeyValues(end);
						this.endKeyValuesAdded = true;
					}
				}
			}
			return;
		}
		// Not before the request started (nothing reads it then): an observation's
		// context has no key values until its start.
		if (!this.startKeyValuesAdded && getName() != null) {
			synchronized (this) {
				if (!this.startKeyValuesAdded) {
					addStartKeyValues();
					this.startKeyValuesAdded = true;
				}
			}
		}
	}

	/**
	 * Add what an observation's stop adds: the convention's key values over those in the
	 * context, and its contextual name.
	 * @param convention the convention that decided the request's tags
	 */
	private void addEndKeyValues(ServerRequestObservationConvention convention) {
		super.addLowCardinalityKeyValues(convention.getLowCardinalityKeyValues(this));
		super.addHighCardinalityKeyValues(convention.getHighCardinalityKeyValues(this));
		String contextualName = convention.getContextualName(this);
		if (contextualName != null && !contextualName.isBlank()) {
			setContextualName(contextualName);
		}
	}

	/**
	 * Add the convention's key values as they were at the start, where no key value of
	 * the same key was added since: an observation adds them at its start, and later
	 * additions replace them.
	 */
	private void addStartKeyValues() {
		ServerHttpRequest request = getCarrier();
		ServerHttpResponse response = getResponse();
		if (request == null || response == null) {
			return;
		}
		HttpStatusCode status = this.statusAtStart;
		ServerRequestObservationContext atStart = new ServerRequestObservationContext(request,
				(status != response.getStatusCode()) ? new StatusThen(response, status) : response, getAttributes());
		String name = getName();
		if (name != null) {
			atStart.setName(name);
		}
		for (KeyValue keyValue : this.convention.getLowCardinalityKeyValues(atStart)) {
			if (super.getLowCardinalityKeyValue(keyValue.getKey()) == null) {
				addLowCardinalityKeyValue(keyValue);
			}
		}
		for (KeyValue keyValue : this.convention.getHighCardinalityKeyValues(atStart)) {
			if (super.getHighCardinalityKeyValue(keyValue.getKey()) == null) {
				addHighCardinalityKeyValue(keyValue);
			}
		}
	}

	/**
	 * The response with the status it had at a given time.
	 */
	private static final class StatusThen extends ServerHttpResponseDecorator {

		private final @Nullable HttpStatusCode status;

		StatusThen(ServerHttpResponse response, @Nullable HttpStatusCode status) {
			super(response);
			this.status = status;
		}

		@Override
		public @Nullable HttpStatusCode getStatusCode() {
			return this.status;
		}

	}

}
