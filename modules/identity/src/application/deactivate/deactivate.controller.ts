import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { DeactivateService } from './deactivate.service';
import { DecidesOnAccountState } from '../accounts/active-account.guard';
import type { DeactivateAnswer, DeactivateRequest, FieldCode, Unchecked } from '@kora/contracts';

/** The exact text the user must type to confirm. */
export const DEACTIVATION_CONFIRMATION = 'DELETE';

/** The code put in `fields` when the confirmation is not the exact text. */
export const DEACTIVATE_FIELD_CODES = {
  confirmationRequired: 'ACCOUNT.CONFIRMATION_REQUIRED',
} as const satisfies Record<string, FieldCode>;

/*
 * Deactivation is published at two URLs, both kept: the account settings' (which asks for the typed confirmation)
 * and the older `/api/auth/delete-account`. Each controller below only reads its request; `DeactivateService` does
 * the rest. Two classes because the URLs sit under two prefixes and two OpenAPI tags.
 */

@ApiTags('user')
@ApiBearerAuth()
@DecidesOnAccountState()
@Controller('api/user/account')
export class DeactivateController {
  constructor(private readonly deactivation: DeactivateService) {}

  /** `confirmationText` must be exactly DELETE. */
  @Post('deactivate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Schedule the account for deletion; confirmationText must be exactly DELETE' })
  async deactivate(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: Unchecked<DeactivateRequest>,
  ): Promise<DeactivateAnswer> {
    if (body?.confirmationText !== DEACTIVATION_CONFIRMATION) {
      throw new ValidationFailedError(
        { confirmationText: DEACTIVATE_FIELD_CODES.confirmationRequired },
        'Please type DELETE to confirm',
      );
    }
    return this.deactivation.deactivate(user.userId, 'settings');
  }
}

@ApiTags('auth')
@ApiBearerAuth()
@DecidesOnAccountState()
@Controller('api/auth')
export class DeleteAccountController {
  constructor(private readonly deactivation: DeactivateService) {}

  @Post('delete-account')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'AuthController_deleteAccount',
    summary: 'Schedule the account for deletion in 30 days and end its sessions',
  })
  deleteAccount(@CurrentUser() user: AuthenticatedUser): Promise<DeactivateAnswer> {
    return this.deactivation.deactivate(user.userId, 'delete-account');
  }
}
