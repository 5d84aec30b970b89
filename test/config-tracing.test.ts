// OpenTelemetry's variables as the service reads them: whether it traces, and in which encoding
// its spans are exported.
import { expect } from 'chai';
import { otlpProtocol, tracingConfigured } from '../src/config/tracing-config.js';

describe('tracing configuration', () => {
  it('traces when an OTLP endpoint is set, unless the SDK is disabled', () => {
    expect(tracingConfigured({})).to.equal(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).to.equal(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).to.equal(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'TRUE' })).to.equal(false);
  });

  it('exports in binary protobuf unless the traces, or every signal, are told http/json', () => {
    expect(otlpProtocol({})).to.deep.equal({ protocol: 'http/protobuf' });
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).to.deep.equal({ protocol: 'http/json' });
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).to.deep.equal({
      protocol: 'http/protobuf',
    });
  });

  it('names a protocol it cannot send, and uses http/protobuf instead', () => {
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).to.deep.equal({ protocol: 'http/protobuf', unsupported: 'grpc' });
  });
});
