// updateTodos: the todo list of a handoff, replaced (docs/contract.md §8).
import { updateTodos as run } from '../actions/updateHandoffFields';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const updateTodos = defineAction({
  params: paramSchemas.updateTodos,
  readOnly: false,
  description: 'Replace the todo list of a handoff as `agent` (each todo: id, content, status). Answers { handoff }.',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p), todos: p.todos, expected_rev: p.expected_rev }),
});
