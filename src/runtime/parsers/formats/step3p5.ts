// StepFun Step-3.5: the Qwen3-Coder XML layout, <tool_call><function=NAME><parameter=KEY>…

import { functionXmlParser } from '../function-xml.js';

export const step3p5 = functionXmlParser('step3p5', [], 'Step-3.5');
