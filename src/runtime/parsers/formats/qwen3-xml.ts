// Qwen3-Coder (and Qwen3 XML tool calling): <tool_call><function=NAME><parameter=KEY>…
// Parameters are text; the tools' schemas give their types.

import { functionXmlParser } from '../function-xml.js';

export const qwen3Xml = functionXmlParser('qwen3_xml', ['qwen3_coder'], 'Qwen3-Coder');
